// Copyright 2014 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package vcs

import "os"

type vcsNotFoundError struct {
	dir string
}

func (e *vcsNotFoundError) Is(err error) bool {
	return err == os.ErrNotExist
}
