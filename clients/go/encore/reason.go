package encore

import (
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
)

// Reason returns the ErrorInfo reason of a refusal (spec 7), e.g. "ETAG_MISMATCH", or "" when
// err is nil, holds no gRPC status, or carries no ErrorInfo (an unknown campaign key is a bare
// NOT_FOUND, for one). A status wrapped with fmt.Errorf("...: %w", err) is found too.
func Reason(err error) string {
	var withStatus interface{ GRPCStatus() *status.Status }
	if !errors.As(err, &withStatus) {
		return ""
	}
	for _, detail := range withStatus.GRPCStatus().Details() {
		if info, ok := detail.(*errdetails.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return ""
}
