package io.racs.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code docker/compose.yml} read the way Compose reads it, for tests that cannot run Docker: the
 * YAML parsed with Jackson, then every string value interpolated with Compose's rules ({@code
 * ${VAR}}, {@code ${VAR:-default}}, {@code ${VAR-default}}, {@code ${VAR:?message}}, {@code $VAR},
 * and {@code $$} for a literal {@code $}) against an environment the test chooses. A variable that
 * is unset and has no default is an error rather than Compose's empty string with a warning: the
 * demo must run without a {@code .env} file.
 */
final class ComposeFile {
  private static final Pattern INTERPOLATION =
      Pattern.compile(
          "\\$(?:(\\$)|\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}|([A-Za-z_][A-Za-z0-9_]*))");

  private final Path file;
  private final JsonNode root;

  private ComposeFile(Path file, JsonNode root) {
    this.file = file;
    this.root = root;
  }

  /** The project's {@code docker/} directory. */
  static Path dockerDir() {
    return Launcher.root().resolve("docker");
  }

  /** Reads {@code docker/compose.yml} with the given environment (for {@code ${VAR}}). */
  static ComposeFile load(Map<String, String> environment) {
    return load(dockerDir().resolve("compose.yml"), environment);
  }

  /** Reads {@code file} with the given environment (for {@code ${VAR}}). */
  static ComposeFile load(Path file, Map<String, String> environment) {
    try {
      JsonNode raw = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(file));
      return new ComposeFile(file, interpolate(raw, environment::get));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The interpolated document. */
  JsonNode root() {
    return root;
  }

  /** The names of all services, in file order. */
  List<String> serviceNames() {
    List<String> names = new ArrayList<>();
    root.path("services").fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** One service; an error naming the file when there is none. */
  JsonNode service(String name) {
    JsonNode service = root.path("services").get(name);
    if (service == null || !service.isObject()) {
      throw new AssertionError(file + ": no service '" + name + "' in " + serviceNames());
    }
    return service;
  }

  /** A service's environment, from either the map or the {@code KEY=VALUE} list form. */
  Map<String, String> environment(String name) {
    Map<String, String> env = new LinkedHashMap<>();
    JsonNode node = service(name).path("environment");
    if (node.isObject()) {
      node.properties().forEach(e -> env.put(e.getKey(), e.getValue().asText()));
    } else if (node.isArray()) {
      for (JsonNode entry : node) {
        String text = entry.asText();
        int eq = text.indexOf('=');
        env.put(eq < 0 ? text : text.substring(0, eq), eq < 0 ? "" : text.substring(eq + 1));
      }
    }
    return env;
  }

  /** A command-like field ({@code command}, {@code entrypoint}, {@code healthcheck.test}). */
  static List<String> words(JsonNode node) {
    List<String> words = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> words.add(n.asText()));
    } else if (node.isTextual()) {
      words.addAll(List.of(node.asText().trim().split("\\s+")));
    }
    return words;
  }

  /** A service's volume mounts in short syntax, as source to target. */
  Map<String, String> mounts(String name) {
    Map<String, String> mounts = new LinkedHashMap<>();
    for (JsonNode volume : service(name).path("volumes")) {
      if (volume.isObject()) {
        mounts.put(volume.path("source").asText(), volume.path("target").asText());
      } else {
        String[] parts = volume.asText().split(":");
        mounts.put(parts[0], parts.length > 1 ? parts[1] : parts[0]);
      }
    }
    return mounts;
  }

  /** A service's short-syntax volume entries, verbatim. */
  List<String> volumeEntries(String name) {
    List<String> entries = new ArrayList<>();
    service(name).path("volumes").forEach(v -> entries.add(v.asText()));
    return entries;
  }

  /** The condition a service waits for on {@code dependency}, or null when it does not. */
  String dependsOn(String name, String dependency) {
    JsonNode depends = service(name).path("depends_on");
    if (depends.isArray()) {
      for (JsonNode d : depends) {
        if (d.asText().equals(dependency)) {
          return "service_started";
        }
      }
      return null;
    }
    JsonNode d = depends.get(dependency);
    return d == null ? null : d.path("condition").asText("service_started");
  }

  /** The port a MinIO service's S3 API listens on: {@code --address [host]:port}, else 9000. */
  int minioPort(String name) {
    List<String> command = words(service(name).path("command"));
    int at = command.indexOf("--address");
    if (at < 0) {
      return 9000;
    }
    String address = command.get(at + 1);
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
  }

  /** The URI a repository uses for a service: {@code http://SERVICE:PORT}. */
  URI minioEndpoint(String name) {
    return URI.create("http://" + name + ":" + minioPort(name));
  }

  private static JsonNode interpolate(JsonNode node, Function<String, String> environment) {
    if (node.isTextual()) {
      return TextNode.valueOf(interpolate(node.asText(), environment));
    }
    if (node.isArray()) {
      ArrayNode copy = ((ArrayNode) node).arrayNode();
      node.forEach(n -> copy.add(interpolate(n, environment)));
      return copy;
    }
    if (node.isObject()) {
      ObjectNode copy = ((ObjectNode) node).objectNode();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        copy.set(e.getKey(), interpolate(e.getValue(), environment));
      }
      return copy;
    }
    return node;
  }

  /** Interpolates one string value with Compose's rules. */
  static String interpolate(String text, Function<String, String> environment) {
    Matcher m = INTERPOLATION.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) != null) {
        replacement = "$";
      } else {
        String name = m.group(2) != null ? m.group(2) : m.group(5);
        String value = environment.apply(name);
        String operator = m.group(3);
        String argument = m.group(4);
        if (operator == null) {
          if (value == null) {
            throw new AssertionError(
                "${" + name + "} is unset and has no default in: " + text + " (use $$ for $)");
          }
          replacement = value;
        } else {
          boolean missing = value == null || (operator.startsWith(":") && value.isEmpty());
          if (operator.endsWith("?")) {
            if (missing) {
              throw new AssertionError(name + " is required: " + argument);
            }
            replacement = value;
          } else {
            replacement = missing ? argument : value;
          }
        }
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }
}
