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
 * or the codec, and the handlers and the connection call the store only through {@code
 * StoreBridge}.
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
  void handlersAndServer_whenImported_callTheStoreOnlyThroughTheBridge() {
    // The handlers and the connection still use the store's records as data (VersionMeta,
    // PartMeta, ObjectStore's nested records); every call into the store goes through StoreBridge,
    // which is where store failures become S3 errors.
    noClasses()
        .that()
        .resideInAnyPackage("io.racs.proxy.s3.handler..", "io.racs.proxy.s3.server..")
        .should()
        .accessClassesThat()
        .haveFullyQualifiedName("io.racs.proxy.store.ObjectStore")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.racs.proxy.store.ErasureStore")
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
