package io.racs.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/configuration.md and the config binder in step: every field a section's bound record
 * has is named in that section of the page, and every field the page's tables name is one the
 * binder has. The records are the binder's own (private nested records are read by reflection), so
 * a new field fails this test until the page says what it does.
 */
class ConfigurationReferenceTest {
  /** Fields every repository entry has, documented once under "repositories". */
  private static final Set<String> ENTRY_FIELDS = Set.of("name", "type", "decorators");

  private static final Pattern HEADING = Pattern.compile("^(#{2,3}) (.+)$", Pattern.MULTILINE);
  private static final Pattern CODE = Pattern.compile("`([A-Za-z][A-Za-z0-9]*)`");

  /** Page section (its heading) to the records whose components are its fields. */
  private static Map<String, List<String>> sections() {
    Map<String, List<String>> s = new LinkedHashMap<>();
    s.put("array", List.of("io.racs.proxy.config.ArrayConfig$Section"));
    s.put("hedge", List.of("io.racs.proxy.config.ArrayConfig$Hedge"));
    s.put(
        "server",
        List.of(
            "io.racs.proxy.runtime.ServerConfig$Section",
            "io.racs.proxy.runtime.ServerConfig$Credential",
            "io.racs.proxy.runtime.ServerConfig$Tls"));
    s.put("coordination", List.of("io.racs.proxy.runtime.CoordinationConfig$Section"));
    s.put("encryption", List.of("io.racs.proxy.config.EncryptionConfig$Section"));
    s.put("prices", List.of("io.racs.repos.price.PriceBook$Fields"));
    s.put("fs", List.of("io.racs.repos.config.FsEntry"));
    s.put("s3 and minio", List.of("io.racs.repos.config.S3Entry"));
    s.put("azure", List.of("io.racs.repos.config.AzureEntry"));
    s.put("gcs", List.of("io.racs.repos.config.GcsEntry"));
    s.put("sftp", List.of("io.racs.repos.config.SftpEntry"));
    s.put("memory", List.of("io.racs.repos.config.MemoryEntry"));
    s.put(
        "decorators",
        List.of(
            "io.racs.repos.config.DecoratorEntries$LatencyOptions",
            "io.racs.repos.config.DecoratorEntries$FaultyOptions"));
    return s;
  }

  /**
   * Fields as the file spells them, where the record's component cannot: {@code default} is a Java
   * keyword, so EncryptionConfig binds it by hand; the prices section's own two fields are read by
   * hand beside the table record.
   */
  private static Set<String> yamlNames(String section, Class<?> record) {
    Set<String> names = new LinkedHashSet<>();
    for (RecordComponent c : record.getRecordComponents()) {
      String name = c.getName();
      if (section.equals("encryption") && name.equals("defaultEncryption")) {
        name = "default";
      }
      names.add(name);
    }
    if (section.equals("prices")) {
      names.addAll(List.of("default", "repositories"));
    }
    names.removeAll(ENTRY_FIELDS);
    return names;
  }

  @Test
  void everyBoundField_isNamedInItsSection_andEveryTableRowIsABoundField() throws Exception {
    Map<String, String> page = pageSections(Files.readString(page()));
    List<String> missing = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, List<String>> section : sections().entrySet()) {
      String text = page.get(section.getKey());
      assertThat(text).as("section '%s' of docs/configuration.md", section.getKey()).isNotNull();
      Set<String> fields = new LinkedHashSet<>();
      for (String record : section.getValue()) {
        fields.addAll(yamlNames(section.getKey(), Class.forName(record)));
      }
      Set<String> named = codeWords(text);
      for (String f : fields) {
        if (!named.contains(f)) {
          missing.add(section.getKey() + "." + f);
        }
      }
      for (String row : firstColumnNames(text)) {
        if (!fields.contains(row)) {
          unknown.add(section.getKey() + "." + row);
        }
      }
    }
    assertThat(missing)
        .as("fields the binder has and docs/configuration.md does not name")
        .isEmpty();
    assertThat(unknown)
        .as("fields docs/configuration.md lists and the binder does not have")
        .isEmpty();
  }

  @Test
  void theCheck_findsAFieldThePageLacks() {
    Map<String, String> page =
        pageSections("## fs\n\n| field | meaning |\n|---|---|\n| `path` | x |\n");
    Set<String> named = codeWords(page.get("fs"));
    assertThat(yamlNames("fs", FsEntryShape.class)).containsExactly("path", "durable");
    assertThat(named).contains("path").doesNotContain("durable");
    assertThat(firstColumnNames(page.get("fs"))).containsExactly("path");
  }

  /** A stand-in with FsEntry's shape, so the check's own parts are tested on a known page. */
  private record FsEntryShape(
      String name, String type, Object decorators, String path, Boolean durable) {}

  private static Path page() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("docs/configuration.md"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("docs/configuration.md above %s", Path.of("").toAbsolutePath()).isNotNull();
    return dir.resolve("docs/configuration.md");
  }

  /** Heading text (lower case) to the text up to the next heading. */
  private static Map<String, String> pageSections(String markdown) {
    Map<String, String> sections = new LinkedHashMap<>();
    Matcher m = HEADING.matcher(markdown);
    String name = null;
    int start = 0;
    while (m.find()) {
      if (name != null) {
        sections.put(name, markdown.substring(start, m.start()));
      }
      name = m.group(2).trim().toLowerCase(java.util.Locale.ROOT);
      start = m.end();
    }
    if (name != null) {
      sections.put(name, markdown.substring(start));
    }
    return sections;
  }

  private static Set<String> codeWords(String text) {
    Set<String> words = new LinkedHashSet<>();
    Matcher m = CODE.matcher(text);
    while (m.find()) {
      words.add(m.group(1));
    }
    return words;
  }

  /** The backquoted names in the first cell of each table row. */
  private static List<String> firstColumnNames(String text) {
    List<String> names = new ArrayList<>();
    for (String line : text.lines().map(String::strip).toList()) {
      if (!line.startsWith("|") || line.startsWith("|---")) {
        continue;
      }
      String first = Arrays.stream(line.split("\\|")).skip(1).findFirst().orElse("");
      names.addAll(codeWords(first));
    }
    return names;
  }
}
