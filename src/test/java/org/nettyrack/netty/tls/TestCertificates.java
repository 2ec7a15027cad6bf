package org.nettyrack.netty.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.config.Bind;

/** Certificates for TLS tests, made by the openssl CLI in a test's temporary directory. */
public final class TestCertificates {
    private final Path dir;

    public TestCertificates(Path dir) {
        this.dir = dir;
    }

    public String path(String name) {
        return dir.resolve(name).toString();
    }

    /** name.pem and name.key: a self-signed certificate for localhost and its PKCS#8 key. */
    public TestCertificates server(String name, String keyType) throws IOException, InterruptedException {
        openssl("req", "-x509", "-newkey", keyType, "-nodes", "-keyout", path(name + ".key"), "-out", path(name + ".pem"),
            "-days", "2", "-subj", "/CN=localhost");
        return this;
    }

    public String keystore(String name, String password) throws IOException, InterruptedException {
        openssl("pkcs12", "-export", "-in", path(name + ".pem"), "-inkey", path(name + ".key"), "-out", path(name + ".p12"),
            "-passout", "pass:" + password);
        return path(name + ".p12");
    }

    public void openssl(String... args) throws IOException, InterruptedException {
        // `timeout` ends an openssl that hangs, so that reading its output to the end returns
        List<String> command = new ArrayList<>(List.of("timeout", "30", "openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("openssl " + args[0] + " failed: " + out);
        }
    }

    public static Bind bind(Map<String, String> params) {
        return new Bind("ssl", "127.0.0.1", 9443, null, params);
    }
}
