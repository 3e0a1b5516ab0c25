// Portable analogs of some common system call errors.
package os

var (
	// ErrNotExist is returned when a file or directory does not exist.
	ErrNotExist = fs.ErrNotExist
	// ErrPermission is returned when permission is denied.
	ErrPermission = fs.ErrPermission
)
