package org.nettyrack.netty.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsSettingsTest {
    @TempDir
    Path dir;
    TestCertificates certs;

    @BeforeEach
    void makeCertificates() throws Exception {
        certs = new TestCertificates(dir).server("rsa", "rsa:2048").server("ec", "ec:" + ecParams());
    }

    private String ecParams() throws Exception {
        Path params = dir.resolve("p256.pem");
        new TestCertificates(dir).openssl("ecparam", "-name", "prime256v1", "-out", params.toString());
        return params.toString();
    }

    private SslContext context(Map<String, String> params) throws TlsSetupException {
        return TlsSettings.context(TestCertificates.bind(params));
    }

    private String failure(Map<String, String> params) {
        return assertThrows(TlsSetupException.class, () -> context(params)).getMessage().replace(dir + "/", "");
    }

    @Test
    void pemPairsOfEitherKindMakeAServerContextForTls12And13Only() throws Exception {
        for (String kind : List.of("rsa", "ec")) {
            SslContext context = context(Map.of("cert", certs.path(kind + ".pem"), "key", certs.path(kind + ".key")));
            assertTrue(context.isServer());
            SSLEngine engine = context.newEngine(ByteBufAllocator.DEFAULT);
            Set<String> enabled = new java.util.HashSet<>(List.of(engine.getEnabledProtocols()));
            enabled.remove("SSLv2Hello"); // OpenSSL's engine names the hello format it reads, not a protocol
            assertEquals(Set.of("TLSv1.2", "TLSv1.3"), enabled);
            assertTrue(TlsSettings.CIPHERS.containsAll(context.cipherSuites()), context.cipherSuites().toString());
            assertEquals(TlsSettings.OFFERED, context.applicationProtocolNegotiator().protocols());
        }
    }

    @Test
    void aKeystoreWithItsPasswordMakesOne() throws Exception {
        String keystore = certs.keystore("rsa", "s3cret");
        assertTrue(context(Map.of("keystore", keystore, "keystore-pass", "s3cret")).isServer());
        assertEquals("https://127.0.0.1:9443: cannot open keystore rsa.p12: wrong keystore-pass",
            failure(Map.of("keystore", keystore, "keystore-pass", "nope")));
    }

    @Test
    void badFilesAreOneSentenceNamingTheFile() throws Exception {
        String prefix = "https://127.0.0.1:9443: ";
        assertEquals(prefix + "cannot read cert file gone.pem: no such file",
            failure(Map.of("cert", certs.path("gone.pem"), "key", certs.path("rsa.key"))));
        assertEquals(prefix + "key rsa.key does not match the certificate in ec.pem",
            failure(Map.of("cert", certs.path("ec.pem"), "key", certs.path("rsa.key"))));
        certs.server("other", "rsa:2048");
        assertEquals(prefix + "key other.key does not match the certificate in rsa.pem",
            failure(Map.of("cert", certs.path("rsa.pem"), "key", certs.path("other.key"))));
        assertEquals(prefix + "cert file rsa.key holds no PEM certificate",
            failure(Map.of("cert", certs.path("rsa.key"), "key", certs.path("rsa.key"))));
        Files.writeString(dir.resolve("pkcs1.key"), "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        assertTrue(failure(Map.of("cert", certs.path("rsa.pem"), "key", certs.path("pkcs1.key")))
            .startsWith(prefix + "key file pkcs1.key holds an RSA key; nettyrack reads unencrypted PKCS#8 keys (convert it: openssl pkcs8"));
    }

    @Test
    void settingsThatCannotWorkAreRefused() {
        String prefix = "https://127.0.0.1:9443: ";
        Map<String, String> pem = Map.of("cert", certs.path("rsa.pem"), "key", certs.path("rsa.key"));
        assertEquals(prefix + "a TLS listener needs cert=FILE and key=FILE (PEM), or keystore=FILE",
            failure(Map.of("cert", certs.path("rsa.pem"))));
        assertEquals(prefix + "give either keystore= or cert= and key=, not both",
            failure(Map.of("keystore", "k.p12", "cert", "c.pem")));
        assertEquals(prefix + "verify_mode must be none, peer or force_peer, got always",
            failure(with(pem, "verify_mode", "always")));
        assertEquals(prefix + "verify_mode=peer needs ca=FILE, the CA certificates client certificates are checked against",
            failure(with(pem, "verify_mode", "peer")));
        for (String alpn : List.of("", "h3", "http/1.1,http/1.1", "h2,", "spdy/3,h2")) {
            assertEquals(prefix + "alpn must list h2 and/or http/1.1 (comma-separated, each once, the preferred first), got " + alpn,
                failure(with(pem, "alpn", alpn)));
        }
    }

    @Test
    void theAlpnParamNarrowsOrReordersWhatAlpnOffers() throws Exception {
        Map<String, String> pem = Map.of("cert", certs.path("rsa.pem"), "key", certs.path("rsa.key"));
        assertEquals(List.of("http/1.1"), context(with(pem, "alpn", "http/1.1")).applicationProtocolNegotiator().protocols());
        assertEquals(List.of("http/1.1", "h2"), context(with(pem, "alpn", "http/1.1,h2")).applicationProtocolNegotiator().protocols());
        assertEquals(List.of("h2"), context(with(pem, "alpn", "h2")).applicationProtocolNegotiator().protocols());
    }

    private static Map<String, String> with(Map<String, String> params, String key, String value) {
        java.util.HashMap<String, String> copy = new java.util.HashMap<>(params);
        copy.put(key, value);
        return copy;
    }
}
