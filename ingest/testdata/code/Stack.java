package example;

/** A stack of ints. */
public class Stack {
    private int[] items = new int[16];
    private int n;

    /** Pushes v on top. */
    public void push(int v) {
        items[n++] = v;
    }

    public int pop() {
        return items[--n];
    }
}
