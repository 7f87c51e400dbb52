package io.racs.repos.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One part of a RACS configuration file (a top-level section such as {@code server}, or one
 * repository entry) bound to a record with Jackson databind, and the checks of its fields: the one
 * place that turns configuration YAML into typed values and every problem into one {@link
 * ConfigException} line naming the file, the part and the field, such as {@code racs.yaml: server:
 * field 'idleTimeout': expected a duration such as 30s, got 'soon'}.
 *
 * <p>The rules, the same for every section:
 *
 * <ul>
 *   <li>A scalar is the text the user wrote (the loader reads files so): YAML 1.1 reads {@code
 *       off}, {@code no}, {@code on} and {@code yes} as booleans and {@code 0123} as an octal
 *       number, so a string field would otherwise receive {@code false} or {@code 83}. The field's
 *       type decides what the text means.
 *   <li>Any scalar may contain {@code ${env:NAME}}, replaced by that environment variable before
 *       the value is read; a variable that is not set is an error naming the field.
 *   <li>{@code Boolean} fields take {@code true} and {@code false}, and YAML 1.1's {@code yes},
 *       {@code no}, {@code on} and {@code off} (lower case, capitalised or upper case); {@code
 *       Integer} and {@code Long} fields take decimal whole numbers. Units (durations, sizes) stay
 *       text in the records and are read here with their field's own message.
 *   <li>A field the record does not have is an error listing the fields it has.
 *   <li>A missing or null section or field binds as absent: {@code null} for a value, a record with
 *       every component {@code null} for a record.
 * </ul>
 *
 * <p>Records to bind must be accessible to Jackson (private nested records are fine) and use boxed
 * types, so that "absent" stays distinguishable from a value.
 */
public final class ConfigSection {
  private static final Pattern ENV_REFERENCE =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
  private static final String ENVIRONMENT = "racs.config.environment";
  private static final Map<String, Boolean> BOOLEANS = booleans();
  private static final ObjectMapper MAPPER = mapper();

  private final String source;
  private final String where;
  private final JsonNode node;
  private final Function<String, String> environment;

  /**
   * A part called {@code where} (in messages) of the file {@code source}, holding {@code node}
   * (null: absent), whose {@code ${env:NAME}} references resolve through {@code environment}.
   */
  public ConfigSection(
      String source, String where, JsonNode node, Function<String, String> environment) {
    this.source = Objects.requireNonNull(source, "source");
    this.where = Objects.requireNonNull(where, "where");
    this.node = node;
    this.environment = Objects.requireNonNull(environment, "environment");
  }

  /** The same node, called {@code where} in messages from now on. */
  public ConfigSection named(String where) {
    return new ConfigSection(source, where, node, environment);
  }

  /** The file, for messages. */
  public String source() {
    return source;
  }

  /** The node, or null when the part is absent. */
  public JsonNode node() {
    return node;
  }

  /** Binds the whole part to {@code type}; unknown fields are reported as "unknown field". */
  public <T> T bind(Class<T> type) {
    return bind("", node, type, "field");
  }

  /** Binds the field {@code field} of the part to {@code type} (null when absent). */
  public <T> T bind(String field, Class<T> type) {
    return bind(field, node == null ? null : node.get(field), type, "field");
  }

  /**
   * Binds {@code value}, found at {@code field} of this part ({@code ""}: the part itself), to
   * {@code type}. A field the type does not have is reported as {@code "unknown " + noun}, such as
   * "unknown option".
   */
  public <T> T bind(String field, JsonNode value, Class<T> type, String noun) {
    JsonNode input = value;
    if (input == null || input.isNull()) {
      if (!type.isRecord()) {
        return null;
      }
      input = JsonNodeFactory.instance.objectNode();
    }
    ObjectReader reader = MAPPER.readerFor(type).withAttribute(ENVIRONMENT, environment);
    try {
      return reader.readValue(input);
    } catch (BadValue e) {
      throw error(path(field, e), e.problem);
    } catch (UnrecognizedPropertyException e) {
      // Jackson's path ends with the unknown field itself.
      List<String> known = e.getKnownPropertyIds().stream().map(Object::toString).toList();
      throw error(
          path(field, e),
          "unknown "
              + noun
              + " (expected one of: "
              + String.join(", ", new TreeSet<>(known))
              + ")");
    } catch (MismatchedInputException e) {
      Class<?> target = e.getTargetType();
      String expected =
          target != null && (Collection.class.isAssignableFrom(target) || target.isArray())
              ? "expected a list"
              : target != null && target.isRecord() ? "expected a mapping" : e.getOriginalMessage();
      throw error(path(field, e), expected);
    } catch (JsonMappingException e) {
      throw error(path(field, e), e.getOriginalMessage());
    } catch (IOException e) {
      // A tree in memory cannot fail to read; anything else is a bug worth its stack trace.
      throw new UncheckedIOException(e);
    }
  }

  /** {@code value}, which must be present and not blank. */
  public String required(String field, String value) {
    if (value == null) {
      throw error(field, "missing");
    }
    if (value.isBlank()) {
      throw error(field, "empty");
    }
    return value;
  }

  /** {@code value} (or {@code fallback} when absent), which must lie from min to max. */
  public long range(String field, Long value, long fallback, long min, long max) {
    long v = value == null ? fallback : value;
    if (v < min || v > max) {
      throw error(field, v + " (expected: " + min + " to " + max + ")");
    }
    return v;
  }

  /**
   * The duration {@code text} (empty when absent); a malformed one is reported as "expected a
   * duration such as {@code example}, got '...'".
   */
  public Optional<Duration> duration(String field, String text, String example) {
    if (text == null) {
      return Optional.empty();
    }
    return Optional.of(
        Units.duration(text)
            .orElseThrow(
                () ->
                    error(
                        field, "expected a duration such as " + example + ", got '" + text + "'")));
  }

  /**
   * The size {@code text} (empty when absent), which must lie from min to max bytes; a malformed or
   * out-of-range one is reported as "expected {@code expected}, got '...'".
   */
  public OptionalLong size(String field, String text, long min, long max, String expected) {
    if (text == null) {
      return OptionalLong.empty();
    }
    OptionalLong bytes = Units.size(text);
    if (bytes.isEmpty() || bytes.getAsLong() < min || bytes.getAsLong() > max) {
      throw error(field, "expected " + expected + ", got '" + text + "'");
    }
    return bytes;
  }

  /**
   * The URL {@code text} of {@code field}, which must have a scheme and a host; {@code example}
   * shows one in the message when it has not.
   */
  public URI url(String field, String text, String example) {
    try {
      URI uri = URI.create(text);
      if (uri.getScheme() != null && uri.getHost() != null) {
        return uri;
      }
    } catch (IllegalArgumentException e) {
      // Reported below, as a URL without a scheme or host is.
    }
    throw error(field, "'" + text + "' is not a URL (expected: e.g. " + example + ")");
  }

  /** A problem with {@code field} ({@code ""}: with the part as a whole), as one line. */
  public ConfigException error(String field, String problem) {
    return new ConfigException(
        source
            + ": "
            + where
            + (field.isEmpty() ? "" : ": field '" + field + "'")
            + ": "
            + problem);
  }

  /**
   * Reads YAML {@code text} into a tree whose scalars are the text as written ({@code null}, {@code
   * ~} and nothing stay null; a quoted scalar loses its quotes), refusing duplicate keys; {@code
   * source} names the text in messages. Null for an empty document.
   */
  static JsonNode readYaml(String text, String source) {
    try (JsonParser parser = MAPPER.getFactory().createParser(text)) {
      return parser.nextToken() == null ? null : tree(parser);
    } catch (JsonProcessingException e) {
      String at = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr() + ": ";
      throw new ConfigException(source + ": " + at + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode tree(JsonParser parser) throws IOException {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    switch (parser.currentToken()) {
      case START_OBJECT -> {
        ObjectNode object = nodes.objectNode();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          object.set(name, tree(parser));
        }
        return object;
      }
      case START_ARRAY -> {
        ArrayNode array = nodes.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(tree(parser));
        }
        return array;
      }
      case VALUE_NULL -> {
        return nodes.nullNode();
      }
      default -> {
        // The YAML parser keeps each scalar's source text whatever type it guessed.
        return nodes.textNode(parser.getText());
      }
    }
  }

  private static String path(String field, JsonMappingException e) {
    String at = field;
    for (JsonMappingException.Reference reference : e.getPath()) {
      at =
          reference.getIndex() >= 0
              ? at + "[" + reference.getIndex() + "]"
              : join(at, reference.getFieldName());
    }
    return at;
  }

  private static String join(String field, String child) {
    return field.isEmpty() ? child : field + "." + child;
  }

  private static Map<String, Boolean> booleans() {
    Map<String, Boolean> words = new HashMap<>();
    for (String word : List.of("true", "yes", "on")) {
      words.put(word, true);
    }
    for (String word : List.of("false", "no", "off")) {
      words.put(word, false);
    }
    for (Map.Entry<String, Boolean> e : Map.copyOf(words).entrySet()) {
      String w = e.getKey();
      words.put(Character.toUpperCase(w.charAt(0)) + w.substring(1), e.getValue());
      words.put(w.toUpperCase(Locale.ROOT), e.getValue());
    }
    return Map.copyOf(words);
  }

  private static ObjectMapper mapper() {
    SimpleModule scalars = new SimpleModule("racs-config-scalars");
    scalars.addDeserializer(String.class, new Scalar<>(String.class, text -> text, null));
    scalars.addDeserializer(
        Boolean.class, new Scalar<>(Boolean.class, BOOLEANS::get, "expected true or false"));
    scalars.addDeserializer(
        Long.class, new Scalar<>(Long.class, ConfigSection::parseLong, "expected a whole number"));
    scalars.addDeserializer(
        Integer.class,
        new Scalar<>(Integer.class, ConfigSection::parseInt, "expected a whole number"));
    ObjectMapper mapper = new ObjectMapper(new YAMLFactory());
    mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    mapper.registerModule(scalars);
    return mapper;
  }

  private static Long parseLong(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Integer parseInt(String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Reads a scalar of type T from its text, once {@code ${env:NAME}} references are resolved;
   * {@code parse} answers null for text that is not a T.
   */
  private static final class Scalar<T> extends StdScalarDeserializer<T> {
    private static final long serialVersionUID = 1L;
    private final transient Function<String, T> parse;
    private final String expected;

    Scalar(Class<T> type, Function<String, T> parse, String expected) {
      super(type);
      this.parse = parse;
      this.expected = expected;
    }

    @Override
    public T deserialize(JsonParser p, DeserializationContext context) throws IOException {
      if (!p.currentToken().isScalarValue()) {
        throw new BadValue(p, "expected a single value");
      }
      @SuppressWarnings("unchecked")
      Function<String, String> environment =
          (Function<String, String>) context.getAttribute(ENVIRONMENT);
      String text = resolve(p, p.getText(), environment);
      T value = parse.apply(text);
      if (value == null) {
        throw new BadValue(p, expected + ", got '" + text + "'");
      }
      return value;
    }

    private static String resolve(JsonParser p, String raw, Function<String, String> environment)
        throws BadValue {
      Matcher m = ENV_REFERENCE.matcher(raw);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String resolved = environment.apply(m.group(1));
        if (resolved == null) {
          throw new BadValue(p, "environment variable " + m.group(1) + " is not set");
        }
        m.appendReplacement(out, Matcher.quoteReplacement(resolved));
      }
      m.appendTail(out);
      return out.toString();
    }
  }

  /** A value that is not what its field takes; Jackson adds the path on the way out. */
  private static final class BadValue extends JsonMappingException {
    private static final long serialVersionUID = 1L;
    private final String problem;

    BadValue(JsonParser p, String problem) {
      super(p, problem);
      this.problem = problem;
    }
  }
}
