package io.racs.bench.agent;

import io.racs.bench.object.target.ArrayTarget;
import io.racs.bench.object.target.HostSelect;
import io.racs.bench.object.target.MultiEndpointTarget;
import io.racs.bench.object.target.RepositoryTarget;
import io.racs.bench.object.target.S3EndpointTarget;
import io.racs.bench.object.target.Target;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.config.RepositorySetConfig;
import java.net.URI;

/**
 * A target as it travels to an agent: a repository by name plus the text of its repository-set file
 * (environment references are resolved on the agent), or an S3 endpoint with its keys. The secret
 * key travels in the agent protocol; it is never written to reports.
 *
 * @param kind {@code repository}, {@code array} (the in-process store over the file's {@code array}
 *     section, coordinated as its {@code coordination} section says) or {@code endpoint}
 * @param name the repository or target name
 * @param configText the repository-set YAML (repository targets)
 * @param configSource where that text came from, for messages
 * @param uri the endpoint URL (endpoint targets)
 * @param accessKey endpoint access key
 * @param secretKey endpoint secret key
 * @param region endpoint region
 * @param bucket endpoint bucket
 * @param payload endpoint payload signing ({@link S3EndpointTarget.Payload#label()})
 * @param hostSelect how requests spread over several endpoint URLs ({@link HostSelect#label()});
 *     null (a controller that does not send it) is round robin
 */
public record TargetSpec(
    String kind,
    String name,
    String configText,
    String configSource,
    String uri,
    String accessKey,
    String secretKey,
    String region,
    String bucket,
    String payload,
    String hostSelect) {
  /** A repository of a repository-set file. */
  public static TargetSpec repository(String name, String configText, String configSource) {
    return new TargetSpec(
        "repository", name, configText, configSource, null, null, null, null, null, null, null);
  }

  /** The in-process array of a repository-set file's {@code array} section, named {@code name}. */
  public static TargetSpec array(String name, String configText, String configSource) {
    return new TargetSpec(
        "array", name, configText, configSource, null, null, null, null, null, null, null);
  }

  /** As {@link #array}, read cold: see {@link ArrayTarget#coldReads()}. */
  public static TargetSpec arrayCold(String name, String configText, String configSource) {
    return new TargetSpec(
        "array-cold", name, configText, configSource, null, null, null, null, null, null, null);
  }

  /**
   * One S3 target served by several endpoints, round robin per request (their URLs travel
   * comma-separated); one endpoint is the same as {@link #endpoint}.
   */
  public static TargetSpec endpoints(java.util.List<S3EndpointTarget.Endpoint> hosts) {
    return endpoints(hosts, HostSelect.ROUND_ROBIN);
  }

  /** As {@link #endpoints(java.util.List)}, each request's endpoint picked by {@code select}. */
  public static TargetSpec endpoints(
      java.util.List<S3EndpointTarget.Endpoint> hosts, HostSelect select) {
    S3EndpointTarget.Endpoint e = hosts.getFirst();
    return new TargetSpec(
        "endpoint",
        e.name(),
        null,
        null,
        String.join(",", hosts.stream().map(h -> h.uri().toString()).toList()),
        e.accessKey(),
        e.secretKey(),
        e.region(),
        e.bucket(),
        e.payload().label(),
        select.label());
  }

  /** An S3 endpoint. */
  public static TargetSpec endpoint(S3EndpointTarget.Endpoint e) {
    return new TargetSpec(
        "endpoint",
        e.name(),
        null,
        null,
        e.uri().toString(),
        e.accessKey(),
        e.secretKey(),
        e.region(),
        e.bucket(),
        e.payload().label(),
        null);
  }

  /** Builds the target (no I/O). */
  public Target build() {
    if (kind.equals("endpoint")) {
      // Several URLs, comma-separated, are one target (warp's --host a,b,c), served round robin
      // or sticky per client (warp's --host-select).
      java.util.List<Target> hosts = new java.util.ArrayList<>();
      for (String u : uri.split(",")) {
        hosts.add(
            S3EndpointTarget.of(
                new S3EndpointTarget.Endpoint(
                    name,
                    URI.create(u),
                    accessKey,
                    secretKey,
                    region,
                    bucket,
                    S3EndpointTarget.Payload.parse(payload))));
      }
      HostSelect select =
          hostSelect == null ? HostSelect.ROUND_ROBIN : HostSelect.parse(hostSelect);
      return hosts.size() == 1 ? hosts.getFirst() : MultiEndpointTarget.of(name, hosts, select);
    }
    RepositorySetConfig set = RepositoryConfigLoader.create().parse(configText, configSource);
    if (kind.equals("array") || kind.equals("array-cold")) {
      // The file's coordination section, if any, applies as it would to a proxy over the array.
      ArrayTarget array = ArrayTarget.of(name, ArrayConfig.from(set));
      CoordinationConfig coordination = CoordinationConfig.from(set).orElse(null);
      if (coordination != null) {
        array = array.coordinated(coordination);
      }
      return kind.equals("array-cold") ? array.coldReads() : array;
    }
    return RepositoryTarget.of(
        RepositoryFactory.create(
            set.repository(name)
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "repository: " + name + " (expected: one of " + configSource + ")"))));
  }

  @Override
  public String toString() {
    return "TargetSpec[kind=" + kind + ", name=" + name + "]";
  }
}
