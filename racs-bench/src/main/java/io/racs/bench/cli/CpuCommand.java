package io.racs.bench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.cpu.CpuTrace;
import io.racs.bench.cpu.CpuUsage;
import io.racs.bench.cpu.ProcessCpu;
import io.racs.bench.report.JsonReport;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import io.racs.repos.config.Units;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code racs bench cpu --pid PID --duration D}, or {@code racs bench cpu --pid PID -- COMMAND...}:
 * the CPU that processes use over a stretch of time or over a command's run (as {@code perf stat -p
 * PID -- COMMAND} does), such as warm servers idling or servers a second bench drives, counted the
 * way {@code bench object --sample-pid} counts it over an iteration.
 */
@Command(
    name = "cpu",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Sample the user and system CPU of processes and their descendants (Linux /proc) over",
      "--duration, or over the run of COMMAND (after --), and print it, by thread group, as JSON",
      "or as a TSV header and row. With a COMMAND, exits with its exit code. With --trace FILE,",
      "a line per --every instead until every process has ended: EPOCH_SECONDS CPU_SECONDS",
      "(user and system since the first line)."
    })
public final class CpuCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--pid",
      split = ",",
      required = true,
      paramLabel = "PID",
      description = "The processes to sample.")
  List<Long> pids = new ArrayList<>();

  @Option(
      names = "--duration",
      paramLabel = "D",
      description = "How long to sample (default: 10s).")
  String duration = "10s";

  @Option(names = "--format", paramLabel = "FORMAT", description = "json or tsv (default: json).")
  String format = "json";

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Write the result to FILE instead of standard output (COMMAND keeps that).")
  Path out;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "Write a line per sample to FILE until the processes end (see above).")
  Path trace;

  @Option(
      names = "--every",
      paramLabel = "D",
      description = "With --trace, the time between samples (default: 100ms).")
  String every = "100ms";

  @Parameters(
      paramLabel = "COMMAND",
      description = "A command to sample over instead of --duration (after --).")
  List<String> command = new ArrayList<>();

  @Override
  public Integer call() throws InterruptedException, IOException {
    Duration length = positive("--duration", duration, "10s");
    if (!format.equals("json") && !format.equals("tsv")) {
      throw new IllegalArgumentException("--format: " + format + " (expected: json or tsv)");
    }
    ProcessCpu sampler;
    try {
      sampler = ProcessCpu.of(pids).requireRunning();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage().replace("--sample-pid", "--pid"), e);
    }
    if (trace != null) {
      Duration interval = positive("--every", every, "100ms");
      if (!command.isEmpty()) {
        throw new IllegalArgumentException(
            "--trace: " + trace + " (expected: either --trace or a COMMAND, not both)");
      }
      CpuTrace.record(sampler, interval, trace);
      return ExitCodes.OK;
    }
    long started = System.nanoTime();
    ProcessCpu.Sample before = sampler.sample();
    int code = ExitCodes.OK;
    if (command.isEmpty()) {
      Thread.sleep(length);
    } else {
      Process child = new ProcessBuilder(command).inheritIO().start();
      code = child.waitFor();
    }
    CpuUsage usage = ProcessCpu.between(before, sampler.sample());
    double seconds =
        command.isEmpty() ? length.toNanos() / 1e9 : (System.nanoTime() - started) / 1e9;
    StringWriter text = new StringWriter();
    print(new PrintWriter(text), usage, seconds);
    if (out == null) {
      spec.commandLine().getOut().print(text);
      spec.commandLine().getOut().flush();
    } else {
      Files.writeString(out, text.toString());
    }
    return code;
  }

  /** {@code value} of {@code option} as a positive duration, such as {@code example}. */
  private static Duration positive(String option, String value, String example) {
    return Units.duration(value)
        .filter(d -> !d.isNegative() && !d.isZero())
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    option + ": " + value + " (expected: a duration such as " + example + ")"));
  }

  private void print(PrintWriter out, CpuUsage usage, double seconds) {
    if (format.equals("tsv")) {
      List<String> header =
          new ArrayList<>(List.of("seconds", "userSeconds", "systemSeconds", "contextSwitches"));
      List<String> row =
          new ArrayList<>(
              List.of(
                  number(seconds),
                  number(usage.userSeconds()),
                  number(usage.systemSeconds()),
                  Long.toString(usage.contextSwitches())));
      usage
          .threadGroupSeconds()
          .forEach(
              (group, s) -> {
                header.add(group + "Seconds");
                row.add(number(s));
              });
      out.println(String.join("\t", header));
      out.println(String.join("\t", row));
    } else {
      ObjectNode node = JsonReport.MAPPER.createObjectNode();
      node.put("seconds", seconds);
      node.putPOJO("pids", usage.pids());
      node.put("userSeconds", usage.userSeconds());
      node.put("systemSeconds", usage.systemSeconds());
      node.put("contextSwitches", usage.contextSwitches());
      node.putPOJO("threadGroupSeconds", usage.threadGroupSeconds());
      out.println(node.toPrettyString());
    }
    out.flush();
  }

  private static String number(double d) {
    return String.format(Locale.ROOT, "%.2f", d);
  }
}
