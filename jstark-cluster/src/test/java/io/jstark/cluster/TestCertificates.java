package io.jstark.cluster;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A throwaway cluster CA and the certificates it signs (EC P-256, valid for loopback), written as PEM files. */
final class TestCertificates {
    private static final AtomicLong SERIAL = new AtomicLong(1);

    private final Path dir;
    private final String name;
    private final KeyPair caKeys;
    private final X509Certificate ca;

    private TestCertificates(Path dir, String name, KeyPair caKeys, X509Certificate ca) {
        this.dir = dir;
        this.name = name;
        this.caKeys = caKeys;
        this.ca = ca;
    }

    /**
     * A new CA.
     *
     * @param dir where its files go
     * @param name its common name
     * @return the CA, its certificate written to {@code dir/name-ca.pem}
     */
    static TestCertificates newCa(Path dir, String name) throws Exception {
        KeyPair keys = keys();
        X500Name subject = new X500Name("CN=" + name);
        X509v3CertificateBuilder b = builder(subject, subject, keys);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        X509Certificate cert = sign(b, keys);
        TestCertificates ca = new TestCertificates(dir, name, keys, cert);
        writeCertificate(ca.caFile(), cert);
        return ca;
    }

    /** {@return the CA's certificate file} */
    Path caFile() {
        return dir.resolve(name + "-ca.pem");
    }

    /**
     * A certificate this CA signs for a member of the cluster (server and client use, valid for 127.0.0.1 and localhost).
     *
     * @param member the member's name, the files' prefix
     * @return its TLS settings: the certificate, its key and this CA
     */
    ClusterTls issue(String member) throws Exception {
        KeyPair keys = keys();
        X509v3CertificateBuilder b = builder(new X500Name("CN=" + name), new X500Name("CN=" + member), keys);
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")
        }));
        X509Certificate cert = sign(b, caKeys);
        Path certFile = dir.resolve(name + "-" + member + ".pem");
        Path keyFile = dir.resolve(name + "-" + member + ".key");
        writeCertificate(certFile, cert);
        Files.writeString(keyFile, pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
        return new ClusterTls(certFile.toFile(), keyFile.toFile(), caFile().toFile());
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        long now = System.currentTimeMillis();
        return new JcaX509v3CertificateBuilder(
                issuer,
                BigInteger.valueOf(SERIAL.getAndIncrement()),
                new Date(now - 60_000),
                new Date(now + 86_400_000L),
                subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer)
            throws OperatorCreationException, GeneralSecurityException {
        ContentSigner s = new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate());
        return new JcaX509CertificateConverter().getCertificate(b.build(s));
    }

    private static void writeCertificate(Path file, X509Certificate cert) throws IOException, GeneralSecurityException {
        Files.writeString(file, pem("CERTIFICATE", cert.getEncoded()));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
