// Package encore dials the Encore Campaigns API with an API key and reads the reason of its
// refusals. The generated clients live in the versioned packages below it
// (encore/campaign/v1 and the others); see clients/go/README.md.
package encore

import (
	"context"
	"crypto/tls"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// Options say how Dial reaches the service.
type Options struct {
	// APIKey, when set, is sent on every call as `authorization: Bearer <key>`: a studio's
	// API key or session, or the operator token for OperatorService. The four public calls a
	// game makes need none.
	APIKey string
	// Cleartext dials HTTP/2 without TLS (h2c), for a service on this machine or behind a
	// proxy that terminates TLS. Otherwise the connection uses TLS.
	Cleartext bool
	// TLS replaces the default TLS configuration (the system's roots, the target's host name).
	TLS *tls.Config
}

// Dial connects to target ("host:port") with opts; extra options are appended as given.
func Dial(ctx context.Context, target string, opts Options, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	dialOptions := []grpc.DialOption{}
	if opts.Cleartext {
		// grpc-go 1.33 (Debian's) predates credentials/insecure.
		dialOptions = append(dialOptions, grpc.WithInsecure())
	} else {
		config := opts.TLS
		if config == nil {
			config = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		dialOptions = append(dialOptions, grpc.WithTransportCredentials(credentials.NewTLS(config)))
	}
	if opts.APIKey != "" {
		dialOptions = append(dialOptions, grpc.WithPerRPCCredentials(APIKey(opts.APIKey, !opts.Cleartext)))
	}
	return grpc.DialContext(ctx, target, append(dialOptions, extra...)...)
}

// APIKey is per-RPC credentials sending `authorization: Bearer <key>`. With requireTLS, grpc-go
// refuses to send the key over a connection without transport security.
func APIKey(key string, requireTLS bool) credentials.PerRPCCredentials {
	return apiKey{header: "Bearer " + key, requireTLS: requireTLS}
}

type apiKey struct {
	header     string
	requireTLS bool
}

func (k apiKey) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": k.header}, nil
}

func (k apiKey) RequireTransportSecurity() bool { return k.requireTLS }
