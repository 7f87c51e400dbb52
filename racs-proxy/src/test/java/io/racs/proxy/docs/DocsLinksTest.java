package io.racs.proxy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README stays a page a newcomer reads in two minutes (at most 150 lines), and no relative link
 * of the README or of docs/ points at a file that is not there: pages move, links must follow.
 */
class DocsLinksTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

  @Test
  void readme_fitsOnAScreenOrTwo() throws IOException {
    assertThat(Files.readAllLines(root().resolve("README.md"))).hasSizeLessThanOrEqualTo(150);
  }

  @Test
  void everyRelativeLink_namesAFileThatExists() throws IOException {
    Path root = root();
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      broken.addAll(brokenLinks(page, Files.readString(page)));
    }
    assertThat(broken).isEmpty();
  }

  @Test
  void theCheck_findsABrokenLink() {
    Path page = root().resolve("docs/example.md");
    assertThat(brokenLinks(page, "see [x](nowhere.md) and [y](architecture.md#modules)"))
        .containsExactly("docs/example.md -> nowhere.md");
  }

  private static List<String> brokenLinks(Path page, String markdown) {
    List<String> broken = new ArrayList<>();
    Matcher m = LINK.matcher(markdown);
    while (m.find()) {
      String target = m.group(1);
      if (target.contains("://") || target.startsWith("mailto:")) {
        continue;
      }
      if (!Files.exists(page.getParent().resolve(target).normalize())) {
        broken.add(root().relativize(page) + " -> " + target);
      }
    }
    return broken;
  }

  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve(".ci/run"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("the repository root above %s", Path.of("").toAbsolutePath()).isNotNull();
    return dir;
  }
}
