package org.nettyrack.netty.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's private key and certificate chain, read from the files a TLS bind names: PEM
 * ({@code cert=} chain, {@code key=} PKCS#8 key, Puma's syntax) or a PKCS#12/JKS keystore
 * ({@code keystore=}, {@code keystore-pass=}, Puma-on-JRuby's). Reading checks that the key
 * belongs to the first certificate, so a mismatch is refused at boot (or at reload) with one
 * sentence instead of failing every handshake later. JDK APIs only.
 */
record KeyMaterial(PrivateKey key, List<X509Certificate> chain) {
    private static final Pattern PEM_KEY =
        Pattern.compile("-----BEGIN ([A-Z ]*)PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END \\1PRIVATE KEY-----");
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"};

    static KeyMaterial pem(String certFile, String keyFile) throws TlsSetupException {
        List<X509Certificate> chain = certificates(certFile, "cert");
        PrivateKey key = privateKey(keyFile);
        return matched(key, chain, "key " + keyFile + " does not match the certificate in " + certFile);
    }

    static KeyMaterial keystore(String file, String password) throws TlsSetupException {
        char[] pass = password == null ? new char[0] : password.toCharArray();
        KeyStore store;
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            store = KeyStore.getInstance(file.endsWith(".jks") ? "JKS" : "PKCS12");
            store.load(in, pass);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException || String.valueOf(e.getMessage()).contains("password")) {
                throw new TlsSetupException("cannot open keystore " + file + ": wrong keystore-pass", e);
            }
            throw new TlsSetupException(unreadable("keystore", file, e), e);
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException("cannot read keystore " + file + ": " + e.getMessage(), e);
        }
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    PrivateKey key = (PrivateKey) store.getKey(alias, pass);
                    List<X509Certificate> chain = new ArrayList<>();
                    for (Certificate c : store.getCertificateChain(alias)) {
                        chain.add((X509Certificate) c);
                    }
                    return matched(key, chain, "the key in keystore " + file + " does not match its certificate");
                }
            }
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException("cannot read the key in keystore " + file + ": " + e.getMessage(), e);
        }
        throw new TlsSetupException("keystore " + file + " holds no private key with a certificate");
    }

    /** X.509 certificates of a PEM file; param names the bind parameter for the message. */
    static List<X509Certificate> certificates(String file, String param) throws TlsSetupException {
        byte[] bytes = read(file, param);
        try {
            List<X509Certificate> certs = new ArrayList<>();
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new java.io.ByteArrayInputStream(bytes))) {
                certs.add((X509Certificate) c);
            }
            if (!certs.isEmpty()) {
                return certs;
            }
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException(param + " file " + file + " holds no PEM certificate", e);
        }
        throw new TlsSetupException(param + " file " + file + " holds no PEM certificate");
    }

    private static PrivateKey privateKey(String file) throws TlsSetupException {
        Matcher pem = PEM_KEY.matcher(new String(read(file, "key"), StandardCharsets.US_ASCII));
        if (!pem.find()) {
            throw new TlsSetupException("key file " + file + " holds no PEM private key");
        }
        if (!pem.group(1).isEmpty()) {
            throw new TlsSetupException("key file " + file + " holds an " + pem.group(1).trim()
                + " key; nettyrack reads unencrypted PKCS#8 keys (convert it: openssl pkcs8 -topk8 -nocrypt -in "
                + file + " -out server.key)");
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(pem.group(2)));
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException wrongAlgorithm) {
                // try the next one
            }
        }
        throw new TlsSetupException("key file " + file + " holds a private key of a kind nettyrack cannot read");
    }

    /** Signs a sample with the key and verifies it with the certificate's public key. */
    private static KeyMaterial matched(PrivateKey key, List<X509Certificate> chain, String mismatch)
            throws TlsSetupException {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "RSASSA-PSS" -> "RSASSA-PSS";
            default -> key.getAlgorithm();
        };
        try {
            byte[] sample = "nettyrack".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            if ("RSASSA-PSS".equals(algorithm)) {
                signer.setParameter(new java.security.spec.PSSParameterSpec("SHA-256", "MGF1",
                    java.security.spec.MGF1ParameterSpec.SHA256, 32, 1));
            }
            signer.initSign(key);
            signer.update(sample);
            byte[] signature = signer.sign();
            signer.initVerify(chain.get(0).getPublicKey());
            signer.update(sample);
            if (signer.verify(signature)) {
                return new KeyMaterial(key, List.copyOf(chain));
            }
        } catch (GeneralSecurityException differentKinds) {
            // an RSA key against an EC certificate, say: no match either
        }
        throw new TlsSetupException(mismatch);
    }

    static byte[] read(String file, String param) throws TlsSetupException {
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (IOException e) {
            throw new TlsSetupException(unreadable(param, file, e), e);
        }
    }

    private static String unreadable(String param, String file, IOException e) {
        String why = e instanceof NoSuchFileException ? "no such file"
            : e instanceof AccessDeniedException ? "permission denied" : String.valueOf(e.getMessage());
        return "cannot read " + param + " file " + file + ": " + why;
    }
}
