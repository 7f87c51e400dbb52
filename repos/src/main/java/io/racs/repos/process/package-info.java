/**
 * {@link ServerProcess}: the one lifecycle of the real servers RACS runs as processes on 127.0.0.1
 * for the demo and the tests (MinIO, the storage emulators, the fault proxy): a free port kept
 * across restarts, a readiness wait that notices an early exit, graceful stop, crash (SIGKILL), and
 * the PIDs for stalls (SIGSTOP). Below {@code minio} and {@code emulator}, which both use it.
 */
package io.racs.repos.process;
