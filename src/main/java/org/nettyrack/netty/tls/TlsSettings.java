package org.nettyrack.netty.tls;

import io.netty.handler.ssl.ApplicationProtocolConfig.Protocol;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.util.List;
import java.util.Map;
import org.nettyrack.core.config.Bind;

/**
 * Turns an {@code ssl://} bind's params into a Netty {@link SslContext}, reading the files
 * anew each time (boot, and every reload):
 * <ul>
 * <li>{@code cert} + {@code key}: PEM chain and PKCS#8 key; or {@code keystore} (+
 * {@code keystore-pass}): PKCS#12 (or {@code .jks}). See {@link KeyMaterial}.</li>
 * <li>{@code verify_mode}: {@code none} (default), {@code peer} (ask for a client certificate,
 * verify it when sent), {@code force_peer} (refuse clients without one); the last two need
 * {@code ca}, a PEM file of the CAs client certificates must chain to.</li>
 * <li>{@code alpn}: the application protocols ALPN offers, the server's preference first, from
 * {@link #OFFERED} ({@code h2,http/1.1} by default; {@code http/1.1} turns HTTP/2 off
 * on this listener).</li>
 * </ul>
 * TLS 1.2 and 1.3 only, forward-secret AEAD suites only ({@link #CIPHERS}). Every failure is one
 * {@link TlsSetupException} sentence that starts with the bind's URL.
 */
final class TlsSettings {
    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /** What ALPN offers unless the listener says otherwise, the server's preference first. */
    static final List<String> OFFERED = List.of(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1);
    /** TLS 1.3's suites, then TLS 1.2's ECDHE + AEAD ones (Mozilla's "intermediate" less DHE). */
    static final List<String> CIPHERS = List.of(
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
    private static final Map<String, ClientAuth> VERIFY_MODES =
        Map.of("none", ClientAuth.NONE, "peer", ClientAuth.OPTIONAL, "force_peer", ClientAuth.REQUIRE);

    private TlsSettings() {
    }

    static SslContext context(Bind bind) throws TlsSetupException {
        try {
            return build(bind.params());
        } catch (TlsSetupException e) {
            throw new TlsSetupException(bind.url() + ": " + e.getMessage(), e);
        }
    }

    private static SslContext build(Map<String, String> params) throws TlsSetupException {
        KeyMaterial material = keyMaterial(params);
        ClientAuth clientAuth = clientAuth(params);
        List<String> alpn = alpn(params);
        SslContextBuilder builder = SslContextBuilder.forServer(material.key(), material.chain())
            .sslProvider(TlsEngine.provider())
            .protocols(PROTOCOLS)
            .ciphers(CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
            .clientAuth(clientAuth)
            .applicationProtocolConfig(new ApplicationProtocolConfig(Protocol.ALPN,
                SelectorFailureBehavior.NO_ADVERTISE, SelectedListenerFailureBehavior.ACCEPT, alpn));
        if (clientAuth != ClientAuth.NONE) {
            builder.trustManager(KeyMaterial.certificates(params.get("ca"), "ca"));
        }
        try {
            return builder.build();
        } catch (Exception e) { // SSLException, or a provider's RuntimeException
            throw new TlsSetupException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static KeyMaterial keyMaterial(Map<String, String> params) throws TlsSetupException {
        String keystore = params.get("keystore");
        String cert = params.get("cert");
        String key = params.get("key");
        if (keystore != null) {
            if (cert != null || key != null) {
                throw new TlsSetupException("give either keystore= or cert= and key=, not both");
            }
            return KeyMaterial.keystore(keystore, params.get("keystore-pass"));
        }
        if (cert == null || key == null) {
            throw new TlsSetupException("a TLS listener needs cert=FILE and key=FILE (PEM), or keystore=FILE");
        }
        return KeyMaterial.pem(cert, key);
    }

    private static ClientAuth clientAuth(Map<String, String> params) throws TlsSetupException {
        String mode = params.getOrDefault("verify_mode", "none");
        ClientAuth auth = VERIFY_MODES.get(mode);
        if (auth == null) {
            throw new TlsSetupException("verify_mode must be none, peer or force_peer, got " + mode);
        }
        if (auth != ClientAuth.NONE && params.get("ca") == null) {
            throw new TlsSetupException("verify_mode=" + mode + " needs ca=FILE, the CA certificates client certificates are checked against");
        }
        return auth;
    }

    /** The alpn param as a list: known protocols, each once, at least one. */
    static List<String> alpn(Map<String, String> params) throws TlsSetupException {
        String text = params.get("alpn");
        if (text == null) {
            return OFFERED;
        }
        List<String> protocols = List.of(text.split(",", -1));
        if (!OFFERED.containsAll(protocols) || protocols.stream().distinct().count() != protocols.size()) {
            throw new TlsSetupException("alpn must list " + String.join(" and/or ", OFFERED)
                + " (comma-separated, each once, the preferred first), got " + text);
        }
        return protocols;
    }
}
