package io.jstark.cluster;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * How the coordinator and the workers reach each other: mutual TLS under one cluster CA (each side presents a
 * certificate the CA signed and accepts only peers that do), or plaintext, which only loopback addresses get (the
 * workers see the witness: the traces travel to them or are built there).
 *
 * @param certificateChain this side's certificate chain (PEM), null for plaintext
 * @param privateKey its private key (PKCS#8 PEM), null for plaintext
 * @param clusterCa the cluster CA's certificate (PEM): the one issuer a peer's certificate is accepted from, null for
 *     plaintext
 */
public record ClusterTls(File certificateChain, File privateKey, File clusterCa) {
    /** Plaintext: loopback only. */
    public static final ClusterTls PLAINTEXT = new ClusterTls(null, null, null);

    /**
     * Checks that the three files are given together.
     *
     * @throws IllegalArgumentException when some but not all are given
     */
    public ClusterTls {
        int given = (certificateChain == null ? 0 : 1) + (privateKey == null ? 0 : 1) + (clusterCa == null ? 0 : 1);
        if (given != 0 && given != 3) {
            throw new IllegalArgumentException(
                    "mutual TLS needs the certificate chain, its private key and the cluster CA together "
                            + "(given: certificate " + certificateChain + ", key " + privateKey + ", CA " + clusterCa
                            + ")");
        }
    }

    /** {@return whether the connections are mutual TLS} */
    public boolean enabled() {
        return certificateChain != null;
    }

    ServerCredentials serverCredentials(String host) throws IOException {
        if (!enabled()) {
            requireLoopback(host, "a worker listening on");
            return InsecureServerCredentials.create();
        }
        return TlsServerCredentials.newBuilder()
                .keyManager(certificateChain, privateKey)
                .trustManager(clusterCa)
                .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
                .build();
    }

    ChannelCredentials channelCredentials(String host) {
        if (!enabled()) {
            requireLoopback(host, "the coordinator's connection to");
            return InsecureChannelCredentials.create();
        }
        try {
            return TlsChannelCredentials.newBuilder()
                    .keyManager(certificateChain, privateKey)
                    .trustManager(clusterCa)
                    .build();
        } catch (IOException e) {
            throw new ClusterException(
                    "cannot read the cluster's TLS files (" + certificateChain + ", " + privateKey + ", " + clusterCa
                            + "): " + e.getMessage(),
                    e);
        }
    }

    private static void requireLoopback(String host, String what) {
        boolean loopback;
        try {
            loopback = InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            loopback = false;
        }
        if (!loopback) {
            throw new ClusterException("plaintext is for loopback only: " + what + " " + host
                    + " needs mutual TLS (a certificate, its key and the cluster CA)");
        }
    }
}
