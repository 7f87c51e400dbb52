package io.racs.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code docker/haproxy.cfg} read the way HAProxy reads the parts the tests need: sections start at
 * an unindented keyword line ({@code frontend s3}, {@code backend racs}), their settings are the
 * indented lines below, and {@code #} starts a comment. It also writes the file back with other
 * addresses, so that a real {@code haproxy} process runs the same file outside Compose.
 */
final class HaproxyConfig {
  private static final Pattern SERVER =
      Pattern.compile("^(\\s*server\\s+)(\\S+)\\s+(\\S+):(\\d+)(\\s+port\\s+(\\d+))?(.*)$");
  private static final Pattern BIND = Pattern.compile("^(\\s*bind\\s+)(\\S*):(\\d+)(.*)$");

  /** One {@code server} line: its name, address, and the port its health check asks. */
  record Server(String name, String host, int port, int checkPort) {}

  private final String text;
  private final Map<String, List<String>> sections = new LinkedHashMap<>();

  private HaproxyConfig(String text) {
    this.text = text;
    List<String> current = null;
    for (String raw : text.lines().toList()) {
      String line = raw.replaceAll("#.*", "").stripTrailing();
      if (line.isBlank()) {
        continue;
      }
      if (!Character.isWhitespace(line.charAt(0))) {
        current = new ArrayList<>();
        sections.put(line.trim().replaceAll("\\s+", " "), current);
      } else if (current != null) {
        current.add(line.trim().replaceAll("\\s+", " "));
      }
    }
  }

  /** Reads {@code docker/haproxy.cfg}. */
  static HaproxyConfig load() {
    return load(ComposeFile.dockerDir().resolve("haproxy.cfg"));
  }

  /** Reads {@code file}. */
  static HaproxyConfig load(Path file) {
    try {
      return new HaproxyConfig(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The settings of the section {@code header} (such as {@code backend racs}), in file order. */
  List<String> section(String header) {
    List<String> lines = sections.get(header);
    if (lines == null) {
      throw new AssertionError("haproxy.cfg: no section '" + header + "' in " + sections.keySet());
    }
    return lines;
  }

  /** The {@code server} lines of {@code backend}. */
  List<Server> servers(String backend) {
    List<Server> servers = new ArrayList<>();
    for (String line : section("backend " + backend)) {
      Matcher m = SERVER.matcher(line);
      if (m.matches()) {
        int port = Integer.parseInt(m.group(4));
        servers.add(
            new Server(
                m.group(2),
                m.group(3),
                port,
                m.group(6) == null ? port : Integer.parseInt(m.group(6))));
      }
    }
    return servers;
  }

  /** The port {@code frontend} binds. */
  int bindPort(String frontend) {
    for (String line : section("frontend " + frontend)) {
      Matcher m = BIND.matcher(line);
      if (m.matches()) {
        return Integer.parseInt(m.group(3));
      }
    }
    throw new AssertionError("haproxy.cfg: frontend " + frontend + " binds nothing");
  }

  /**
   * The file's text with each frontend's {@code bind} on 127.0.0.1 at the port {@code binds} gives
   * it (by the bound port in the file), and each {@code server} line's address and check port
   * replaced by {@code servers} (by server name, as {@code {port, checkPort}}); everything else as
   * it is. Every bind and server must be replaced.
   */
  String rewrite(Map<Integer, Integer> binds, Map<String, int[]> servers) {
    StringBuilder out = new StringBuilder();
    int replaced = 0;
    for (String line : text.lines().toList()) {
      Matcher server = SERVER.matcher(line);
      Matcher bind = BIND.matcher(line);
      if (server.matches()) {
        int[] to = servers.get(server.group(2));
        if (to == null) {
          throw new AssertionError("no address given for server " + server.group(2));
        }
        line =
            server.group(1)
                + server.group(2)
                + " 127.0.0.1:"
                + to[0]
                + " port "
                + to[1]
                + server.group(7);
        replaced++;
      } else if (bind.matches()) {
        Integer to = binds.get(Integer.parseInt(bind.group(3)));
        if (to == null) {
          throw new AssertionError("no port given for " + line.trim());
        }
        line = bind.group(1) + "127.0.0.1:" + to + bind.group(4);
        replaced++;
      }
      out.append(line).append('\n');
    }
    if (replaced != binds.size() + servers.size()) {
      throw new AssertionError(
          "replaced " + replaced + " lines, expected " + (binds.size() + servers.size()));
    }
    return out.toString();
  }
}
