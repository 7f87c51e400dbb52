package io.racs.proxy.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * Keeps the codec, the striping store and the encryption free of HTTP: they may not touch Netty,
 * the AWS SDK, the JDK HTTP client or the S3 layer, so that only the S3 layer knows the wire
 * (docs/architecture.md, "Modules"). A fixture that breaks the rule proves the rule can fail. And
 * keeps the running proxy's assembly ({@code io.racs.proxy.runtime}) on top: the layers it wires
 * together never reach back into it.
 */
class LayeringTest {
  private static ArchRule noHttpIn(String... packages) {
    return noClasses()
        .that()
        .resideInAnyPackage(packages)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.netty..", "software.amazon..", "java.net.http..", "io.racs.proxy.s3..")
        .because("the codec and the store know nothing of HTTP, Netty or the SDK");
  }

  @Test
  void codecAndStore_whenProductionClassesImported_dependOnNoHttpLayer() {
    JavaClasses production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.racs.proxy");
    assertThat(production.containPackage("io.racs.proxy.codec")).isTrue();
    assertThat(production.containPackage("io.racs.proxy.store")).isTrue();
    assertThat(production.containPackage("io.racs.proxy.crypto")).isTrue();
    noHttpIn("io.racs.proxy.codec..", "io.racs.proxy.store..", "io.racs.proxy.crypto..")
        .check(production);
  }

  @Test
  void layers_whenProductionClassesImported_doNotDependOnTheRuntime() {
    JavaClasses production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.racs.proxy");
    assertThat(production.containPackage("io.racs.proxy.runtime")).isTrue();
    noClasses()
        .that()
        .resideInAnyPackage("io.racs.proxy.codec..", "io.racs.proxy.store..", "io.racs.proxy.s3..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.racs.proxy.runtime..")
        .because("the runtime assembles the codec, the store and the S3 layer, not the reverse")
        .check(production);
  }

  @Test
  void rule_whenFixtureUsesNetty_reportsViolation() {
    JavaClasses fixture = new ClassFileImporter().importPackages("io.racs.proxy.arch.fixture");
    EvaluationResult result = noHttpIn("io.racs.proxy.arch.fixture..").evaluate(fixture);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString()).contains("io.netty.buffer.ByteBuf");
  }
}
