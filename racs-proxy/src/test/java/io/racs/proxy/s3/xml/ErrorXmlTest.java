package io.racs.proxy.s3.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.io.ByteArrayInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * Proves every S3 error body is XML 1.0 that a real parser accepts, whatever the client put in the
 * key or another echoed field: characters XML 1.0 forbids (NUL and the other C0 controls, U+FFFE,
 * U+FFFF, unpaired surrogates) become U+FFFD, and everything XML can carry stays exact.
 */
class ErrorXmlTest {
  private static Document parse(byte[] xml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
  }

  private static String text(Document d, String element) {
    return d.getElementsByTagName(element).item(0).getTextContent();
  }

  @Test
  void render_whenKeyHasNul_isParseableWithReplacementCharacter() throws Exception {
    S3Exception error =
        S3Exception.of(S3ErrorCode.NO_SUCH_KEY)
            .withDetail("Key", "a\u0000b")
            .withResource("/b/a\u0000b");

    byte[] xml = ErrorXml.render(error, "REQ");

    Document d = parse(xml);
    assertThat(text(d, "Code")).isEqualTo("NoSuchKey");
    assertThat(text(d, "Key")).isEqualTo("a\uFFFDb");
    assertThat(text(d, "Resource")).isEqualTo("/b/a\uFFFDb");
    assertThat(text(d, "RequestId")).isEqualTo("REQ");
  }

  @Test
  void render_whenEveryEchoedFieldHasEveryIllegalCharacter_isParseable() {
    StringBuilder illegal = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      if (c != '\t' && c != '\n' && c != '\r') {
        illegal.append(c);
      }
    }
    illegal.append('\uFFFE').append('\uFFFF').append('\uD800').append("x").append('\uDC00');
    String bad = illegal.toString();
    S3Exception error =
        S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "message " + bad)
            .withDetail("ArgumentName", bad)
            .withDetail("ArgumentValue", bad)
            .withResource("/b/" + bad);

    byte[] xml = ErrorXml.render(error, "REQ");

    assertThatCode(() -> parse(xml)).doesNotThrowAnyException();
  }

  @Test
  void render_whenKeyHasCharactersXmlAllows_keepsThemExactly() throws Exception {
    String key = "a&b<c>\"d'e\tf\ng\rh\u007F日本😀\uE000\uFFFD";
    S3Exception error = S3Exception.of(S3ErrorCode.NO_SUCH_KEY).withResource("/b/" + key);

    Document d = parse(ErrorXml.render(error, "REQ"));

    assertThat(text(d, "Resource")).isEqualTo("/b/" + key);
  }
}
