package io.racs.bench.cli;

import io.racs.bench.demo.EmbeddedZooKeeper;
import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.LocalEngine;
import io.racs.bench.object.run.ObjectBenchmark;
import io.racs.bench.object.run.Plan;
import io.racs.bench.object.run.Progress;
import io.racs.bench.object.run.RunResult;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.target.ArrayTarget;
import io.racs.bench.object.target.HostSelect;
import io.racs.bench.object.target.S3EndpointTarget;
import io.racs.bench.object.target.Target;
import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.report.ConsoleTable;
import io.racs.bench.report.ObjectReports;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.config.Units;
import io.racs.repos.price.PriceBook;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs bench object}: object workloads against configured repositories (through the SPI) and
 * S3 endpoints, side by side, with JMH-grade statistics and reports.
 */
@Command(
    name = "object",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Measure PUT/GET/HEAD/LIST/DELETE and mixes on repositories and S3 endpoints.",
      "Example: racs bench object --config racs.yaml --repository local-a,minio-1 --op get"
          + " --sizes 4KiB,1MiB --clients 1,4,16 --verify"
    })
public final class ObjectCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Repository-set file (YAML). Its optional prices: section prices the array's repository"
              + " calls (default: AWS S3 Standard, us-east-1); see docs/bench/cost.md.")
  Path config;

  @Option(
      names = "--repository",
      split = ",",
      paramLabel = "NAME",
      description = "Repositories of --config to measure through the SPI.")
  List<String> repositories = new ArrayList<>();

  @Option(
      names = "--array",
      paramLabel = "NAME",
      description =
          "Also measure the array of --config (its array section) in process, as target NAME;"
              + " --delay applies to each of its repositories.")
  String array;

  @Option(
      names = "--array-cold",
      description =
          "Read the --array target cold: before each GET and HEAD its store forgets the records and"
              + " versions it read or wrote, as a proxy that has not read the key (another wrote it).")
  boolean arrayCold;

  @Option(
      names = "--embedded-zookeeper",
      description =
          "Start a ZooKeeper server in this process (127.0.0.1, a free port) for the run and"
              + " coordinate the --array target through it with the version cache on, as"
              + " coordination: {zookeeper: 127.0.0.1:PORT, versionCache: true} in --config would:"
              + " a GET or HEAD of a key unchanged since the target listed it lists nothing."
              + " Refused when --config has a coordination section (which the --array target"
              + " follows as a proxy does) and with --agents.")
  boolean embeddedZooKeeper;

  @ArgGroup(exclusive = false, multiplicity = "0..*")
  List<EndpointOptions> endpoints = new ArrayList<>();

  /** One S3 endpoint target. */
  static final class EndpointOptions {
    @Option(
        names = "--endpoint",
        required = true,
        paramLabel = "URL[,URL...]",
        description =
            "S3 URL; several, comma-separated, serve one target (round robin per request, or one"
                + " endpoint per client: see --host-select).")
    String url;

    @Option(names = "--access-key", required = true, paramLabel = "KEY")
    String accessKey;

    @Option(names = "--secret-key", required = true, paramLabel = "SECRET")
    String secretKey;

    // Group options take field defaults: Picocli cannot apply defaultValue to an absent group.
    @Option(names = "--region", description = "Default: us-east-1.")
    String region = "us-east-1";

    @Option(names = "--bucket", description = "Default: racs-bench (created when missing).")
    String bucket = "racs-bench";

    @Option(names = "--name", paramLabel = "NAME", description = "Label (default host:port).")
    String name;
  }

  @Option(
      names = "--op",
      split = ",",
      paramLabel = "OP",
      description = "put, get, head, list, delete or mixed (a list runs each). Default: get.")
  List<String> ops = new ArrayList<>();

  @Option(names = "--mix", paramLabel = "OP=W,...", description = "Exact mix, e.g. get=60,put=40.")
  String mix;

  @Option(
      names = "--sizes",
      defaultValue = "4KiB",
      description = "Sizes (4KiB,1MiB) or a distribution (uniform:4KiB-1MiB, lognormal:64KiB:1).")
  String sizes;

  @Option(
      names = "--objects",
      defaultValue = "64",
      description =
          "Keys in the key space; with --prefix-per-client, in each client's key space. Default:"
              + " 64.")
  int objects;

  @Option(
      names = "--prefix-per-client",
      description =
          "Give each client its own key space, under its own sub-prefix c<i>/ of each case's"
              + " prefix (as warp's per-client prefix, which warp's --noprefix turns off):"
              + " prepare, reads, writes, LIST and DELETE of client i touch only its own --objects"
              + " keys (so N clients hold N x --objects objects, as fio's nrfiles counts per"
              + " job). With --host-select sticky no client reads a key written through another"
              + " endpoint. Default: all clients share one key space of --objects keys.")
  boolean prefixPerClient;

  @Option(names = "--prefix", defaultValue = "racs-bench/", description = "Key prefix.")
  String prefix;

  @Option(names = "--prefixes", defaultValue = "1", description = "Sub-prefixes keys spread over.")
  int prefixes;

  @Option(
      names = "--keys",
      defaultValue = "uniform",
      description = "Key distribution: uniform, zipf[:S], hot[:K/O].")
  String keys;

  @Option(names = "--range", description = "GET range: FIRST-LAST, random:LENGTH or random.")
  String range;

  @Option(names = "--clients", split = ",", defaultValue = "1", description = "Client counts.")
  List<Integer> clients;

  @Option(names = "--rate", paramLabel = "OPS/s", description = "Open loop at this total rate.")
  Double rate;

  @Option(names = "--arrivals", defaultValue = "constant", description = "constant or poisson.")
  String arrivals;

  @Option(names = "--warmup", defaultValue = "1", description = "Discarded iterations.")
  int warmup;

  @Option(names = "--iterations", defaultValue = "5", description = "Measured iterations.")
  int iterations;

  @Option(
      names = "--confidence",
      paramLabel = "PERCENT",
      defaultValue = "99.9",
      description =
          "Confidence level of every interval, in percent (50 to 99.99). Default: 99.9, as JMH;"
              + " a short run with few iterations may ask for 95 and says so in its reports.")
  double confidencePercent;

  @Option(names = "--duration", defaultValue = "5s", description = "Iteration length.")
  String duration;

  @Option(names = "--count", description = "Operations per iteration instead of --duration.")
  Long count;

  @Option(
      names = "--delay",
      split = ",",
      defaultValue = "0ms",
      description = "Injected round-trip delays for repository targets (latency decorator).")
  List<String> delays;

  @Option(names = "--overhead", paramLabel = "A/B", description = "Overhead ratio of A over B.")
  String overhead;

  @Option(
      names = "--payload",
      defaultValue = "signed",
      description =
          "How PUT bodies are signed on S3 endpoints: signed (aws-chunked SigV4 chunk signatures,"
              + " no checksum: what warp and minio-go send over HTTP), unsigned (UNSIGNED-PAYLOAD:"
              + " the least client CPU) or sdk (the AWS SDK's defaults: CRC32 trailer,"
              + " Expect: 100-continue, GET checksum validation). Default: signed.")
  String payload;

  @Option(
      names = "--host-select",
      defaultValue = "roundrobin",
      paramLabel = "roundrobin|sticky",
      description =
          "How a target of several --endpoint URLs spreads its requests: roundrobin (each client"
              + " sends each request to the next URL, as warp's --host-select roundrobin) or"
              + " sticky (client i sends every request to URL i mod the URL count, as a keep-alive"
              + " load balancer pins each connection). All clients share one key space either"
              + " way unless --prefix-per-client. Default: roundrobin.")
  String hostSelect;

  @Option(names = "--verify", description = "Check every GET byte-exact.")
  boolean verify;

  @Option(names = "--seed", defaultValue = "1", description = "Run seed.")
  long seed;

  @Option(names = "--list-max", defaultValue = "1000", description = "LIST page size.")
  int listMax;

  @Option(names = "--out", paramLabel = "DIR", description = "Default: ./bench-out/<timestamp>.")
  Path out;

  @Option(names = "--keep", description = "Do not delete the benchmark's objects afterwards.")
  boolean keep;

  @Mixin io.racs.proxy.cli.progress.ProgressOption progressOption;

  @Option(names = "--quiet", description = "No progress line (as --progress=none).")
  boolean quiet;

  @Option(
      names = "--agents",
      split = ",",
      paramLabel = "HOST:PORT",
      description = "Run the load on these agents (racs bench agent).")
  List<String> agents = new ArrayList<>();

  @picocli.CommandLine.Mixin SamplePidOption samplePid = new SamplePidOption();

  /** The prices of the run: the {@code prices:} section of --config, read in {@link #engine}. */
  private PriceBook prices = PriceBook.awsDefault();

  /** The ZooKeeper of --embedded-zookeeper, started in {@link #engine}, closed after the engine. */
  private EmbeddedZooKeeper zookeeper;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    Plan plan = plan();
    io.racs.bench.cpu.ProcessCpu sampler = samplePid.sampler();
    List<String> command = new ArrayList<>(List.of("racs", "bench", "object"));
    command.addAll(redactedArgs());
    Path dir =
        out != null
            ? out
            : Path.of(
                "bench-out",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    RunResult result;
    try {
      try (Engine engine = engine(plan);
          Progress progress =
              quiet
                  ? Progress.silent()
                  : Progress.printingTo(spec.commandLine().getErr(), progressOption.mode())) {
        result = new ObjectBenchmark(engine, plan, progress).sampling(sampler).run(command);
        if (engine instanceof io.racs.bench.agent.RemoteEngine remote) {
          result.agents.addAll(remote.agentNames());
        }
      }
    } finally {
      // After the engine: its array target leaves ZooKeeper when it closes.
      if (zookeeper != null) {
        zookeeper.close();
        zookeeper = null;
      }
    }
    ObjectReports.write(result, dir, prices);
    ConsoleTable.print(result, stdout, prices);
    stdout.println("results: " + dir.toAbsolutePath().normalize());
    stdout.flush();
    PrintWriter stderr = spec.commandLine().getErr();
    for (io.racs.bench.object.run.PointResult p : result.points) {
      p.warning()
          .ifPresent(w -> stderr.println("racs bench object: warning: " + p.id() + ": " + w));
    }
    stderr.flush();
    return ExitCodes.OK;
  }

  private List<String> redactedArgs() {
    List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals("--secret-key") && i + 1 < args.size()) {
        args.set(i + 1, "***");
      } else if (args.get(i).startsWith("--secret-key=")) {
        args.set(i, "--secret-key=***");
      }
    }
    return args;
  }

  Plan plan() {
    List<Mix> mixes = new ArrayList<>();
    List<String> requested = ops.isEmpty() ? List.of(mix != null ? "mixed" : "get") : ops;
    for (String op : requested) {
      if (op.trim().equals("mixed")) {
        if (mix == null) {
          throw new IllegalArgumentException("--op: mixed (expected: with --mix get=60,put=40)");
        }
        mixes.add(Mix.parse(mix));
      } else {
        mixes.add(Mix.of(Op.parse(op)));
      }
    }
    List<SizeSpec> sizeList = SizeSpec.parseList(sizes);
    for (int c : clients) {
      if (c < 1 || c > 10_000) {
        throw new IllegalArgumentException("--clients: " + c + " (expected: 1 to 10000)");
      }
    }
    List<Duration> delayList = new ArrayList<>();
    for (String d : delays) {
      delayList.add(
          Units.duration(d)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "--delay: " + d + " (expected: durations such as 0ms,10ms)")));
    }
    Duration iteration =
        Units.duration(duration)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "--duration: " + duration + " (expected: a duration such as 5s)"));
    Arrivals arrivalKind =
        switch (arrivals) {
          case "constant" -> Arrivals.CONSTANT;
          case "poisson" -> Arrivals.POISSON;
          default ->
              throw new IllegalArgumentException(
                  "--arrivals: " + arrivals + " (expected: constant or poisson)");
        };
    if (rate != null && !(rate > 0)) {
      throw new IllegalArgumentException("--rate: " + rate + " (expected: > 0)");
    }
    Optional<String[]> pair = Optional.empty();
    if (overhead != null) {
      String[] ab = overhead.split("/", -1);
      if (ab.length != 2 || ab[0].isBlank() || ab[1].isBlank()) {
        throw new IllegalArgumentException(
            "--overhead: " + overhead + " (expected: A/B, two target names)");
      }
      pair = Optional.of(ab);
    }
    int minClients = clients.stream().mapToInt(Integer::intValue).min().orElse(1);
    Workload template =
        new Workload(
            mixes.getFirst(),
            sizeList.getFirst(),
            KeyDistribution.parse(keys),
            range == null ? RangeSpec.NONE : RangeSpec.parse(range),
            objects,
            prefixes,
            prefix,
            minClients,
            rate == null ? 0 : rate,
            arrivalKind,
            iteration,
            count == null ? 0 : count,
            verify,
            seed,
            listMax,
            prefixPerClient);
    int maxClients = clients.stream().mapToInt(Integer::intValue).max().orElse(1);
    if (prefixPerClient && (long) objects * maxClients > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "--prefix-per-client: "
              + objects
              + " objects x "
              + maxClients
              + " clients (expected: at most "
              + Integer.MAX_VALUE
              + " keys in all)");
    }
    if (count != null) {
      // Checks that --count gives every client of the largest sweep point one operation.
      template.withClients(maxClients);
    }
    if (!(confidencePercent >= 50 && confidencePercent <= 99.99)) {
      throw new IllegalArgumentException(
          "--confidence: " + confidencePercent + " (expected: a percentage from 50 to 99.99)");
    }
    return new Plan(
        template,
        mixes,
        sizeList,
        clients,
        delayList,
        warmup,
        iterations,
        pair,
        !keep,
        confidencePercent / 100);
  }

  private Engine engine(Plan plan) {
    if (config == null && !repositories.isEmpty()) {
      throw new IllegalArgumentException("--repository: needs --config FILE");
    }
    if (arrayCold && array == null) {
      throw new IllegalArgumentException("--array-cold: needs --array NAME");
    }
    if (config == null && array != null) {
      throw new IllegalArgumentException("--array: needs --config FILE with an array section");
    }
    if (embeddedZooKeeper && array == null) {
      throw new IllegalArgumentException("--embedded-zookeeper: needs --array NAME");
    }
    if (embeddedZooKeeper && !agents.isEmpty()) {
      throw new IllegalArgumentException(
          "--embedded-zookeeper: not with --agents (expected: a coordination section in --config"
              + " naming an ensemble the agents reach)");
    }
    if (repositories.isEmpty() && endpoints.isEmpty() && array == null) {
      throw new IllegalArgumentException(
          "targets: none (expected: --config FILE --repository NAME, or --endpoint URL)");
    }
    String configText = null;
    RepositorySetConfig set = null;
    if (config != null) {
      set = RepositoryConfigLoader.create().load(config);
      // Checked before any target opens: a bad price table changes nothing.
      prices = PriceBook.from(set);
      try {
        configText = java.nio.file.Files.readString(config);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(config + ": cannot read: " + e.getMessage(), e);
      }
    }
    HostSelect select = HostSelect.parse(hostSelect);
    List<io.racs.bench.agent.TargetSpec> specs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (String name : repositories) {
      RepositorySetConfig s = set;
      s.repository(name)
          .orElseThrow(
              () ->
                  new IllegalArgumentException(
                      "--repository: "
                          + name
                          + " (expected one of: "
                          + String.join(
                              ", ", s.repositories().stream().map(RepositoryConfig::name).toList())
                          + ")"));
      if (!names.add(name)) {
        throw new IllegalArgumentException("--repository: " + name + " (expected: each once)");
      }
      specs.add(io.racs.bench.agent.TargetSpec.repository(name, configText, config.toString()));
    }
    if (array != null) {
      // Checked here, before anything runs: the section must name as many slots as the geometry.
      io.racs.proxy.config.ArrayConfig.from(set);
      if (CoordinationConfig.from(set).isPresent() && embeddedZooKeeper) {
        throw new IllegalArgumentException(
            "--embedded-zookeeper: "
                + config
                + " has a coordination section (expected: one or the other)");
      }
      if (!names.add(array)) {
        throw new IllegalArgumentException(
            "--array: " + array + " (expected: a unique target name)");
      }
      specs.add(
          arrayCold
              ? io.racs.bench.agent.TargetSpec.arrayCold(array, configText, config.toString())
              : io.racs.bench.agent.TargetSpec.array(array, configText, config.toString()));
    }
    for (EndpointOptions e : endpoints) {
      // Several comma-separated URLs are one target, each request's URL picked by --host-select.
      List<URI> uris = new ArrayList<>();
      for (String u : e.url.split(",", -1)) {
        URI one;
        try {
          one = URI.create(u.trim());
        } catch (IllegalArgumentException bad) {
          one = null;
        }
        if (one == null || one.getScheme() == null || one.getHost() == null) {
          throw new IllegalArgumentException(
              "--endpoint: "
                  + e.url
                  + " (expected: a URL such as http://127.0.0.1:9000, or several separated by"
                  + " commas)");
        }
        uris.add(one);
      }
      if (new HashSet<>(uris).size() != uris.size()) {
        throw new IllegalArgumentException("--endpoint: " + e.url + " (expected: each URL once)");
      }
      List<String> hosts = new ArrayList<>();
      for (URI u : uris) {
        hosts.add(u.getHost() + ":" + u.getPort());
      }
      String name = e.name != null ? e.name : String.join(",", hosts);
      if (!names.add(name)) {
        throw new IllegalArgumentException("--name: " + name + " (expected: unique target names)");
      }
      List<S3EndpointTarget.Endpoint> hostEndpoints = new ArrayList<>();
      for (URI u : uris) {
        hostEndpoints.add(
            new S3EndpointTarget.Endpoint(
                name,
                u,
                e.accessKey,
                e.secretKey,
                e.region,
                e.bucket,
                S3EndpointTarget.Payload.parse(payload)));
      }
      specs.add(io.racs.bench.agent.TargetSpec.endpoints(hostEndpoints, select));
    }
    if (plan.overhead().isPresent()) {
      for (String n : plan.overhead().get()) {
        if (!names.contains(n)) {
          throw new IllegalArgumentException(
              "--overhead: " + n + " (expected: one of the targets " + names + ")");
        }
      }
    }
    if (!agents.isEmpty()) {
      return io.racs.bench.agent.RemoteEngine.connect(agents, specs);
    }
    CoordinationConfig embedded = null;
    if (embeddedZooKeeper) {
      try {
        zookeeper = EmbeddedZooKeeper.startTemporary();
      } catch (Exception e) {
        throw new IllegalStateException(
            "--embedded-zookeeper: cannot start ZooKeeper: " + e.getMessage(), e);
      }
      embedded =
          new CoordinationConfig(
              zookeeper.connectString(), "racs", null, Duration.ofSeconds(15), true);
    }
    List<Target> targets = new ArrayList<>();
    for (io.racs.bench.agent.TargetSpec s : specs) {
      Target t = s.build();
      if (embedded != null && t instanceof ArrayTarget a) {
        t = a.coordinated(embedded);
      }
      targets.add(t);
    }
    return new LocalEngine(targets);
  }
}
