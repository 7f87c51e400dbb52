package io.racs.bench.external;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.report.JsonReport;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One fio run's figures, from its {@code --output-format=json} file with {@code --group_reporting}:
 * the first job's (the group's) bandwidth and IOPS, each direction.
 *
 * @param readBytesPerSecond {@code jobs[0].read.bw_bytes}
 * @param readIops {@code jobs[0].read.iops}
 * @param writeBytesPerSecond {@code jobs[0].write.bw_bytes}
 * @param writeIops {@code jobs[0].write.iops}
 */
public record FioJson(
    double readBytesPerSecond, double readIops, double writeBytesPerSecond, double writeIops) {
  /**
   * Reads fio's JSON output.
   *
   * @throws IllegalArgumentException when the file is missing, not JSON or has no job
   */
  public static FioJson read(Path file) {
    JsonNode root;
    try {
      root = JsonReport.MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": not fio JSON output (" + e.getMessage() + ")");
    }
    JsonNode job = root == null ? null : root.path("jobs").path(0);
    if (job == null || !job.path("read").isObject() || !job.path("write").isObject()) {
      throw new IllegalArgumentException(
          file + ": no jobs[0] with read and write (expected: fio --output-format=json)");
    }
    return new FioJson(
        job.path("read").path("bw_bytes").asDouble(),
        job.path("read").path("iops").asDouble(),
        job.path("write").path("bw_bytes").asDouble(),
        job.path("write").path("iops").asDouble());
  }

  /** MB/s (10^6 bytes) of the direction asked for. */
  public double megabytesPerSecond(boolean write) {
    return (write ? writeBytesPerSecond : readBytesPerSecond) / 1e6;
  }

  /** IOPS of the direction asked for. */
  public double iops(boolean write) {
    return write ? writeIops : readIops;
  }
}
