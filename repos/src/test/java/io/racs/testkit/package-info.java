/**
 * The test kit, published as this module's test-jar and used by the tests of every module: {@link
 * io.racs.testkit.MinioExtension} runs real MinIO server processes (each an {@link
 * io.racs.repos.minio.MinioServer}) for a test class and restores them after each test; {@link
 * io.racs.testkit.TestTools} finds the client tools the end-to-end tests drive, and {@link
 * io.racs.testkit.HelpOptionCheck} checks {@code --help} on every command of a command line, and
 * {@link io.racs.testkit.CountingRepository} counts the calls an array's repositories receive;
 * {@link io.racs.testkit.DrivenClock} is a clock a test moves by hand, {@link
 * io.racs.testkit.SeededBytes} makes test data from a seed, and {@link io.racs.testkit.Await}
 * waits, with a deadline, for a condition another thread makes true. The repository contract suite
 * lives beside the backends' own tests, in {@code io.racs.repos}.
 *
 * <p>Nothing in production code may depend on this package: what the demo needs to run MinIO lives
 * in {@link io.racs.repos.minio}.
 */
package io.racs.testkit;
