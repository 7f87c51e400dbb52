/**
 * The {@code azure} backend: a repository in one Azure Blob Storage container (optionally under a
 * key prefix), on Azure or the Azurite emulator, through {@code azure-storage-blob} over the JDK's
 * HttpClient ({@link io.racs.repos.azure.AzureRepository}), with its settings ({@link
 * io.racs.repos.azure.AzureOptions}) and how it authenticates ({@link
 * io.racs.repos.azure.AzureCredentials}). It owns the blob names, uploads, retries and the one
 * translation of Azure errors into repository error kinds.
 *
 * <p>It is the only package of this module that knows the Azure SDK; it must not know configuration
 * files or its callers.
 */
package io.racs.repos.azure;
