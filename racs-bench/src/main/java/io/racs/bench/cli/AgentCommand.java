package io.racs.bench.cli;

import io.racs.bench.agent.BenchAgent;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code racs bench agent}: serves load to a controller's {@code --agents} until stopped. */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Serve object workloads to a controller (racs bench object --agents HOST:PORT,...).",
      "Runs until the process is stopped. Targets' secrets travel in the protocol: bind to a"
          + " trusted network only."
    })
public final class AgentCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--listen",
      defaultValue = "127.0.0.1:7070",
      paramLabel = "HOST:PORT",
      description = "Address to serve on (default 127.0.0.1:7070; port 0 picks a free one).")
  String listen;

  /** Released to stop a running agent (a test seam); the CLI never releases it. */
  CountDownLatch stop = new CountDownLatch(1);

  @Override
  public Integer call() throws Exception {
    int colon = listen.lastIndexOf(':');
    if (colon <= 0 || !listen.substring(colon + 1).matches("\\d{1,5}")) {
      throw new IllegalArgumentException("--listen: " + listen + " (expected: HOST:PORT)");
    }
    int port = Integer.parseInt(listen.substring(colon + 1));
    if (port > 65535) {
      throw new IllegalArgumentException("--listen: " + listen + " (expected: port 0 to 65535)");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (BenchAgent agent =
        BenchAgent.start(new InetSocketAddress(listen.substring(0, colon), port))) {
      out.println(
          "agent listening on "
              + agent.address().getHostString()
              + ":"
              + agent.address().getPort());
      out.flush();
      stop.await();
    }
    return ExitCodes.OK;
  }
}
