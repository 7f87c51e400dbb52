package io.racs.bench.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.IterationRunner;
import io.racs.bench.object.run.Progress;
import io.racs.bench.object.run.Workload;
import io.racs.bench.stats.WindowCheck;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs iterations on remote agents. Every agent gets the same targets and, per iteration, the same
 * workload (each under its own key sub-prefix {@code aN/}) and one start instant a little in the
 * future, so all agents load the targets together. The merged iteration adds every agent's counts
 * and histograms exactly; its throughput is computed over the window all agents share (the latest
 * window start to the earliest window end) from the agents' 50 ms slices. An agent that fails is
 * dropped from the rest of the run and named in the notes, as is one that received its start
 * request after the start instant (by more than {@link #LATE}). Agents' clocks are assumed to be
 * synchronised (NTP); the offset between hosts is not measured.
 */
public final class RemoteEngine implements Engine {
  /** How far ahead of "now" an iteration's start instant is set. */
  static final Duration START_MARGIN = Duration.ofMillis(300);

  /** An agent later than this at the start instant is reported as slow. */
  static final Duration LATE = Duration.ofMillis(50);

  private final List<String> names;
  private final List<URI> uris;
  private final boolean[] lost;
  private final HttpClient http;
  private final List<TargetInfo> targets;
  private final List<String> notes = new ArrayList<>();
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

  /** The agents' own results of the last iteration, before merging (a test seam). */
  volatile List<IterationResult> lastParts = List.of();

  private RemoteEngine(List<String> names, HttpClient http, List<TargetInfo> targets) {
    this.names = List.copyOf(names);
    this.uris = names.stream().map(n -> URI.create("http://" + n)).toList();
    this.lost = new boolean[names.size()];
    this.http = http;
    this.targets = targets;
  }

  /**
   * Opens a session with every agent.
   *
   * @throws IllegalArgumentException when an address is not {@code host:port}
   * @throws IllegalStateException when an agent cannot be reached or refuses the targets
   */
  public static RemoteEngine connect(List<String> agents, List<TargetSpec> specs) {
    for (String a : agents) {
      int colon = a.lastIndexOf(':');
      if (colon <= 0 || !a.substring(colon + 1).matches("\\d{1,5}")) {
        throw new IllegalArgumentException("--agents: " + a + " (expected: HOST:PORT)");
      }
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    ObjectNode session = Wire.MAPPER.createObjectNode();
    session.put("protocol", Wire.PROTOCOL);
    ArrayNode list = session.putArray("targets");
    specs.forEach(s -> list.add(Wire.MAPPER.valueToTree(s)));
    List<TargetInfo> infos = null;
    for (String a : agents) {
      JsonNode answer =
          call(http, URI.create("http://" + a), "/session", session, Duration.ofSeconds(30), a);
      if (infos == null) {
        infos = new ArrayList<>();
        for (JsonNode t : answer.get("targets")) {
          Map<String, String> d = new LinkedHashMap<>();
          for (Map.Entry<String, JsonNode> e : t.get("description").properties()) {
            d.put(e.getKey(), e.getValue().asText());
          }
          infos.add(
              new TargetInfo(
                  t.get("name").asText(),
                  t.get("kind").asText(),
                  d,
                  t.get("delayable").asBoolean()));
        }
      }
    }
    return new RemoteEngine(agents, http, List.copyOf(infos));
  }

  /** The agents, as given. */
  public List<String> agentNames() {
    return names;
  }

  @Override
  public List<TargetInfo> targets() {
    return targets;
  }

  @Override
  public synchronized List<String> notes() {
    return List.copyOf(notes);
  }

  private static String sub(String prefix, int agent) {
    return prefix + "a" + agent + "/";
  }

  private static ObjectNode request(int target, String prefix, Workload workload) {
    ObjectNode r = Wire.MAPPER.createObjectNode();
    r.put("target", target);
    r.put("prefix", prefix);
    if (workload != null) {
      r.set("workload", Wire.workload(workload));
    }
    return r;
  }

  @Override
  public void prepare(int target, String prefix, Workload workload) throws InterruptedException {
    onAll("/prepare", a -> request(target, sub(prefix, a), workload), Duration.ofMinutes(10));
  }

  @Override
  public void declare(int target, String prefix, Workload workload) {
    try {
      onAll("/declare", a -> request(target, sub(prefix, a), workload), Duration.ofSeconds(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void cleanUp(int target, String prefix) throws InterruptedException {
    onAll("/cleanup", a -> request(target, sub(prefix, a), null), Duration.ofMinutes(10));
  }

  @Override
  public IterationResult iterate(
      int target, String prefix, Workload workload, Duration delay, long seed, Progress progress)
      throws InterruptedException {
    long start = IterationRunner.epochNanos() + START_MARGIN.toNanos();
    Duration timeout =
        workload.count() > 0
            ? Duration.ofMinutes(10)
            : workload.duration().plus(START_MARGIN).plusSeconds(60);
    Map<Integer, JsonNode> answers =
        onAll(
            "/iterate",
            a -> {
              ObjectNode r = request(target, sub(prefix, a), workload);
              r.put("delayNanos", delay.toNanos());
              r.put("seed", seed);
              r.put("startEpochNanos", start);
              return r;
            },
            timeout);
    List<IterationResult> parts = new ArrayList<>();
    List<String> partNames = new ArrayList<>();
    for (Map.Entry<Integer, JsonNode> e : answers.entrySet()) {
      IterationResult part = Wire.result(e.getValue());
      partNames.add(names.get(e.getKey()));
      long late = e.getValue().path("lateNanos").asLong();
      if (late > LATE.toNanos()) {
        note(
            String.format(
                Locale.ROOT,
                "agent %s started %.0f ms after the common start instant (slow agent)",
                names.get(e.getKey()),
                late / 1e6));
      }
      parts.add(part);
    }
    if (parts.isEmpty()) {
      throw new IllegalStateException("every agent is lost; nothing left to measure");
    }
    lastParts = List.copyOf(parts);
    IterationResult merged =
        merge(parts, partNames, workload.count() > 0 ? "--count" : "--duration");
    progress.completed(false);
    return merged;
  }

  /**
   * Adds the parts exactly and sets the window to the one all parts share; throughput over that
   * window comes from the parts' slices ({@link IterationResult#sharedWindowOps}). The merged
   * iteration is invalid when a part is, when the parts share no window, when the shared window is
   * shorter than a request ({@link WindowCheck}), or when it holds no whole slice.
   *
   * @param names the agents of {@code parts}, in the same order (for the reasons)
   * @param knob the option that lengthens an iteration, for the reasons
   */
  static IterationResult merge(List<IterationResult> parts, List<String> names, String knob) {
    IterationResult merged = new IterationResult();
    long startEpoch = parts.getFirst().startEpochNanos;
    merged.startEpochNanos = startEpoch;
    long sharedStart = Long.MIN_VALUE;
    long sharedEnd = Long.MAX_VALUE;
    double cpu = Double.NaN;
    double pressure = Double.NaN;
    String partReason = null;
    for (int i = 0; i < parts.size(); i++) {
      IterationResult p = parts.get(i);
      merged.add(p);
      long shift = p.startEpochNanos - startEpoch;
      sharedStart = Math.max(sharedStart, p.windowStartNanos + shift);
      sharedEnd = Math.min(sharedEnd, p.windowEndNanos + shift);
      if (partReason == null && !p.isValid()) {
        partReason = "agent " + names.get(i) + ": " + p.invalidReason;
      }
      if (!Double.isNaN(p.cpuUtilisation)) {
        cpu = Double.isNaN(cpu) ? p.cpuUtilisation : Math.max(cpu, p.cpuUtilisation);
      }
      if (!Double.isNaN(p.cpuPressure)) {
        pressure = Double.isNaN(pressure) ? p.cpuPressure : Math.max(pressure, p.cpuPressure);
      }
    }
    merged.cpuUtilisation = cpu;
    merged.cpuPressure = pressure;
    merged.windowStartNanos = Math.max(0, sharedStart);
    merged.windowEndNanos = Math.max(merged.windowStartNanos, sharedEnd);
    if (partReason != null) {
      merged.invalidReason = partReason;
      return merged;
    }
    if (sharedEnd < sharedStart) {
      merged.invalidReason =
          "no window: the agents' windows do not overlap (agents started late or stopped early):"
              + " raise "
              + knob;
      return merged;
    }
    merged.invalidReason =
        WindowCheck.invalidReason(true, sharedEnd - sharedStart, merged.requestNanosP50(), knob)
            .orElse(null);
    if (merged.invalidReason != null) {
      return merged;
    }
    long firstSlice = Math.floorDiv(sharedStart - 1, IterationResult.SLICE_NANOS) + 1;
    long endSlice = Math.floorDiv(sharedEnd, IterationResult.SLICE_NANOS);
    if (endSlice - firstSlice < 1) {
      // Throughput over the shared window comes from whole slices; without one there is none.
      merged.invalidReason =
          "the agents' shared window of "
              + WindowCheck.duration(sharedEnd - sharedStart)
              + " holds no whole "
              + IterationResult.SLICE_NANOS / 1_000_000
              + " ms slice: raise "
              + knob;
      return merged;
    }
    long ops = 0;
    long bytes = 0;
    for (long s = firstSlice; s < endSlice; s++) {
      if (s >= 0 && s < merged.sliceOps.length) {
        ops += merged.sliceOps[(int) s];
        bytes += merged.sliceBytes[(int) s];
      }
    }
    merged.windowStartNanos = firstSlice * IterationResult.SLICE_NANOS;
    merged.windowEndNanos = endSlice * IterationResult.SLICE_NANOS;
    merged.sharedWindowOps = ops;
    merged.sharedWindowBytes = bytes;
    return merged;
  }

  private interface RequestFor {
    ObjectNode build(int agent);
  }

  private Map<Integer, JsonNode> onAll(String path, RequestFor requests, Duration timeout)
      throws InterruptedException {
    Map<Integer, Future<JsonNode>> futures = new LinkedHashMap<>();
    for (int a = 0; a < uris.size(); a++) {
      if (lost[a]) {
        continue;
      }
      int agent = a;
      ObjectNode body = requests.build(agent);
      futures.put(
          agent,
          executor.submit(
              () -> call(http, uris.get(agent), path, body, timeout, names.get(agent))));
    }
    Map<Integer, JsonNode> answers = new LinkedHashMap<>();
    for (Map.Entry<Integer, Future<JsonNode>> f : futures.entrySet()) {
      try {
        answers.put(f.getKey(), f.getValue().get());
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof AgentError refused) {
          // The agent answered: the request itself was bad, which no other agent fixes.
          throw new IllegalStateException(refused.getMessage(), refused);
        }
        synchronized (this) {
          lost[f.getKey()] = true;
        }
        note(
            "agent "
                + names.get(f.getKey())
                + " lost during "
                + path
                + ": "
                + (cause.getMessage() != null ? cause.getMessage() : cause.toString())
                + "; later iterations ran without it");
      }
    }
    return answers;
  }

  private synchronized void note(String note) {
    notes.add(note);
  }

  /** An agent answered with an error. */
  static final class AgentError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AgentError(String message) {
      super(message);
    }
  }

  private static JsonNode call(
      HttpClient http, URI base, String path, JsonNode body, Duration timeout, String name) {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(toBytes(body)))
            .build();
    HttpResponse<byte[]> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new IllegalStateException(
          "agent " + name + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("agent " + name + ": interrupted", e);
    }
    JsonNode answer;
    try {
      answer = Wire.MAPPER.readTree(response.body());
    } catch (IOException e) {
      throw new IllegalStateException("agent " + name + ": answered something other than JSON", e);
    }
    if (response.statusCode() != 200) {
      throw new AgentError("agent " + name + ": " + answer.path("error").asText());
    }
    return answer;
  }

  private static byte[] toBytes(JsonNode body) {
    try {
      return Wire.MAPPER.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    for (int a = 0; a < uris.size(); a++) {
      if (!lost[a]) {
        try {
          call(
              http,
              uris.get(a),
              "/close",
              Wire.MAPPER.createObjectNode(),
              Duration.ofSeconds(5),
              names.get(a));
        } catch (RuntimeException e) {
          note("agent " + names.get(a) + " did not close its session: " + e.getMessage());
        }
      }
    }
    executor.shutdownNow();
    http.close();
  }
}
