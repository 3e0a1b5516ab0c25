package storetest_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/graphrag/graphrag/retrievers/storetest"
)

func TestHashEmbedder(t *testing.T) {
	ctx := context.Background()
	e := storetest.NewHashEmbedder(32)
	vs, err := e.Embed(ctx, []string{"Red fox, red FOX!", "red fox", "", "blue whale"})
	if err != nil {
		t.Fatal(err)
	}
	cos := func(a, b []float32) float64 {
		var s float64
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"same words, any case and punctuation", cos(vs[0], vs[1]), 1},
		{"unit length", cos(vs[3], vs[3]), 1},
		{"empty text is zero", cos(vs[2], vs[2]), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if math.Abs(tc.got-tc.want) > 1e-6 {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
	again, _ := storetest.NewHashEmbedder(32).Embed(ctx, []string{"blue whale"})
	if fmt.Sprint(again[0]) != fmt.Sprint(vs[3]) {
		t.Error("not deterministic across instances")
	}
	salted, _ := (&storetest.HashEmbedder{Dim: 32, Salt: "b"}).Embed(ctx, []string{"blue whale"})
	if fmt.Sprint(salted[0]) == fmt.Sprint(vs[3]) {
		t.Error("salt did not change the hashing")
	}
	if e.Calls() != 1 {
		t.Errorf("Calls = %d, want 1", e.Calls())
	}
	if _, err := (&storetest.HashEmbedder{}).Embed(ctx, []string{"x"}); err == nil {
		t.Error("zero dimension accepted")
	}
}

func ExampleHashEmbedder() {
	e := storetest.NewHashEmbedder(8)
	vs, _ := e.Embed(context.Background(), []string{"hello world"})
	fmt.Println(e.Name(), e.Dimension(), len(vs[0]))
	// Output: hash-8 8 8
}
