package xnack

import "testing"

//matrix:hazard rt-blocking-stream
func TestStreamHost(t *testing.T) { LaunchOnStream(HostBuf(64), true) } // want `TestStreamHost reaches system memory`

//matrix:twin rt-blocking-stream
func TestStreamDevice(t *testing.T) { LaunchOnStream(DeviceBuf(64), true) }

//matrix:hazard rt-legacy-stream
func TestLegacyStreamHost(t *testing.T) { LaunchOnStream(HostBuf(64), false) } // want `TestLegacyStreamHost reaches system memory`

//matrix:twin rt-legacy-stream
func TestLegacyStreamDevice(t *testing.T) { LaunchOnStream(DeviceBuf(64), false) }

//matrix:na rt-event-wrapper: XNACK is about which memory the device may touch, not when: events order work, they grant no access
//matrix:na rt-runtime-kind: copy kinds belong to copy sync; a copy is no kernel access of system memory
//matrix:na rt-capture-free: graph free nodes free graph memory; the XNACK hazard is a kernel's access
