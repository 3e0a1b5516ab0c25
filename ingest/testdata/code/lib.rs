//! A tiny queue, written for graphrag's tests.

/// A first-in first-out queue.
#[derive(Debug)]
pub struct Queue {
    items: Vec<i32>,
}

impl Queue {
    pub fn push(&mut self, v: i32) {
        self.items.push(v);
    }
}

pub fn new_queue() -> Queue {
    Queue { items: Vec::new() }
}
