package io.racs.proxy.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Keeps the S3 protocol units one concern per package with dependencies pointing one way: no cycles
 * between them, errors depend on no other unit, none of the protocol units reaches into the store
 * or the codec, no S3 package but the bridge depends on the store in any way (the handlers and the
 * connection use {@code StoreBridge} and its S3 view), and the bridge knows neither the wire nor
 * the handlers.
 */
class S3PackagesTest {
  private static final JavaClasses PRODUCTION =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.racs.proxy.s3");

  @Test
  void s3Units_whenImported_haveNoCycles() {
    slices().matching("io.racs.proxy.s3.(*)..").should().beFreeOfCycles().check(PRODUCTION);
  }

  @Test
  void errorPackage_whenImported_dependsOnNoOtherS3Unit() {
    noClasses()
        .that()
        .resideInAPackage("io.racs.proxy.s3.error..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.racs.proxy.s3.auth..",
            "io.racs.proxy.s3.chunked..",
            "io.racs.proxy.s3.checksum..",
            "io.racs.proxy.s3.http..",
            "io.racs.proxy.s3.precondition..",
            "io.racs.proxy.s3.range..",
            "io.racs.proxy.s3.route..",
            "io.racs.proxy.s3.xml..")
        .check(PRODUCTION);
  }

  @Test
  void handlersAndServer_whenImported_dependOnTheStoreOnlyThroughTheBridge() {
    // Not the store's interface, nor its records, nor its exceptions: the handlers and the
    // connection call StoreBridge and read its answers in the bridge's own S3 view (ObjectVersion,
    // ObjectListing...), and every store failure becomes an S3 error inside the bridge.
    noClasses()
        .that()
        .resideInAPackage("io.racs.proxy.s3..")
        .and()
        .resideOutsideOfPackage("io.racs.proxy.s3.bridge..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.racs.proxy.store..")
        .because("StoreBridge is the one crossing from the S3 layer into the store")
        .check(PRODUCTION);
  }

  @Test
  void bridge_whenImported_knowsNeitherTheWireNorTheHandlers() {
    noClasses()
        .that()
        .resideInAPackage("io.racs.proxy.s3.bridge..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.netty..",
            "io.racs.proxy.s3.auth..",
            "io.racs.proxy.s3.chunked..",
            "io.racs.proxy.s3.http..",
            "io.racs.proxy.s3.xml..",
            "io.racs.proxy.s3.handler..",
            "io.racs.proxy.s3.server..")
        .check(PRODUCTION);
  }

  @Test
  void authz_whenImported_knowsNeitherTheWireNorTheHandlersNorTheBridge() {
    // The decision point judges what it is given (a head, a route, who signed): it reads bucket
    // policies through a function, so that no handler can be reached around it and it cannot
    // touch the store itself.
    noClasses()
        .that()
        .resideInAPackage("io.racs.proxy.s3.authz..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.netty..",
            "io.racs.proxy.s3.bridge..",
            "io.racs.proxy.s3.handler..",
            "io.racs.proxy.s3.server..")
        .check(PRODUCTION);
  }

  @Test
  void protocolUnits_whenImported_doNotTouchStoreOrCodec() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.racs.proxy.s3.auth..",
            "io.racs.proxy.s3.chunked..",
            "io.racs.proxy.s3.checksum..",
            "io.racs.proxy.s3.error..",
            "io.racs.proxy.s3.http..",
            "io.racs.proxy.s3.precondition..",
            "io.racs.proxy.s3.range..",
            "io.racs.proxy.s3.route..",
            "io.racs.proxy.s3.xml..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.racs.proxy.store..", "io.racs.proxy.codec..")
        .check(PRODUCTION);
  }
}
