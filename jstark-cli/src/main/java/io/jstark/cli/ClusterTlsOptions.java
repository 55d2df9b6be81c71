package io.jstark.cli;

import io.jstark.cluster.ClusterTls;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Mutual TLS between the coordinator and its workers: this side's certificate and key, and the cluster's CA. */
public final class ClusterTlsOptions {
    @Option(
            names = "--tls-cert",
            paramLabel = "FILE",
            description = "This side's certificate chain (PEM), signed by the cluster CA.")
    Path certificate;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "Its private key (PKCS#8 PEM).")
    Path key;

    @Option(
            names = "--tls-ca",
            paramLabel = "FILE",
            description = "The cluster CA's certificate (PEM): peers must hold one it signed. "
                    + "Without the three TLS options, connections are plaintext, which only loopback addresses accept.")
    Path ca;

    /** {@return the TLS settings, or plaintext when none is given} */
    ClusterTls tls() {
        try {
            return new ClusterTls(
                    certificate == null ? null : certificate.toFile(),
                    key == null ? null : key.toFile(),
                    ca == null ? null : ca.toFile());
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
        }
    }
}
