//go:build !js

package playground

// runtimeName is the Features.Runtime of this build.
const runtimeName = "server"
