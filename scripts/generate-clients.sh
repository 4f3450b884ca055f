#!/usr/bin/env bash
# Regenerates the client packages from proto/ (npm run generate:clients; CI checks the result is
# committed): clients/ts/src/gen with protoc-gen-es, clients/go with protoc-gen-go and
# protoc-gen-go-grpc. The Go plugins are local, as clients/go/README.md
# describes: Debian's protoc-gen-go-grpc, and a protoc-gen-go built from Debian's source tree
# (Debian's /usr/bin/protoc-gen-go is the old 1.3 generator, which rejects proto3 `optional`).
set -euo pipefail
cd "$(dirname "$0")/.."

rm -rf clients/ts/src/gen
buf generate --template buf.gen.ts-client.yaml

if ! command -v go >/dev/null || ! command -v protoc-gen-go-grpc >/dev/null || [ ! -d /usr/share/gocode/src/google.golang.org/protobuf ]; then
  echo "generate:clients needs Go and Debian's Go packages:" >&2
  echo "  apt-get install -y golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev golang-google-genproto-dev protoc-gen-go-grpc" >&2
  exit 1
fi
plugins="$PWD/node_modules/.cache/encore-go-plugins"
if [ ! -x "$plugins/protoc-gen-go" ]; then
  mkdir -p "$plugins"
  GO111MODULE=off GOPATH=/usr/share/gocode go build -o "$plugins/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
fi
find clients/go -name '*.pb.go' -delete
PATH="$plugins:$PATH" buf generate --template buf.gen.go.yaml
