/**
 * Real MinIO server processes and the tools the project provisions for them, shared by the
 * integration tests (through the JUnit extension in this module's test-jar) and by {@code racs demo
 * --minio}, which runs the same topology as the Docker Compose demo without Docker.
 */
package io.racs.testkit;
