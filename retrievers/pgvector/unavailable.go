package pgvector

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/graphrag/graphrag"
	"github.com/jackc/pgx/v5/pgconn"
)

// unavailableError marks an error that says the database cannot be
// reached (down, restarting, refusing connections, the network gone): it
// matches graphrag.ErrUnavailable, so a server answers 503 and a client
// retries later, and keeps its own message and chain.
type unavailableError struct{ err error }

func (e *unavailableError) Error() string        { return e.err.Error() }
func (e *unavailableError) Unwrap() error        { return e.err }
func (e *unavailableError) Is(target error) bool { return target == graphrag.ErrUnavailable }

// unavailable marks err when it is a connection failure. Any other error,
// and any error once ctx is done (the caller gave up, the database did
// not fail), is returned as it is.
func unavailable(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil || errors.Is(err, graphrag.ErrUnavailable) || !isConnectionError(err) {
		return err
	}
	return &unavailableError{err}
}

// Connection failures that PostgreSQL reports itself (SQLSTATE).
var unavailableCodes = map[string]bool{
	"57P01": true, // admin_shutdown
	"57P02": true, // crash_shutdown
	"57P03": true, // cannot_connect_now (starting up, recovering)
	"53300": true, // too_many_connections
}

func isConnectionError(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08: connection exception.
		return len(pgErr.Code) == 5 && pgErr.Code[:2] == "08" || unavailableCodes[pgErr.Code]
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
