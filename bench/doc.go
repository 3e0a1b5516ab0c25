// Package bench compares graphrag's graph engine with cloudwego/eino's
// compose graph on the same workflow, side by side in one benchmark run.
// It is a separate module so that eino never enters graphrag's go.mod.
//
// The workflow: five trivial nodes in a ring, a → b → c → d → e, and one
// conditional back-edge e ⇢ a | END; each node adds one to a counter and
// the branch leaves once it reaches 10, so a run is 10 steps (two turns of
// the loop). Run it from this directory:
//
//	go test -run '^$' -bench . -count 5 ./...
//
// Each benchmark reports ns/op, B/op and allocs/op for a whole run and
// ns/step, B/step and allocs/step per node run. For the ratio in one go:
//
//	go test -run TestRatio -v -ratio ./...
package bench
