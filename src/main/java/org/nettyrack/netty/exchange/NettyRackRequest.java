package org.nettyrack.netty.exchange;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.nettyrack.core.HeaderVisitor;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.RequestBody;
import org.nettyrack.core.RequestId;
import org.nettyrack.core.RequestStart;
import org.nettyrack.core.RequestTimes;
import org.nettyrack.core.Upgrade;

/**
 * A decoded Netty request head plus its fully read body, seen through the core's eyes. The
 * application is mounted at the root ({@code SCRIPT_NAME} ""); what the request may be
 * upgraded to is decided once, here, by the core's rule ({@link Upgrade#of}).
 */
public final class NettyRackRequest implements RackRequest {
    private final HttpRequest head;
    private final RequestBody body;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final String protocol;
    private final Upgrade upgrade;
    private final boolean secure;
    private final String connectProtocol;
    /** From the head's arrival: the access log's duration starts there. */
    private final RequestTimes times;
    private final String requestId;

    public NettyRackRequest(HttpRequest head, RequestBody body, SocketAddress remote, SocketAddress local) {
        this(head, body, remote, local, System.nanoTime(), null, false, null);
    }

    /**
     * protocol: the one the request came by, when not its head's version ({@code HTTP/2}), else
     * null; secure: the request came over TLS; connectProtocol: an extended CONNECT's
     * {@code :protocol}, else null.
     */
    public NettyRackRequest(HttpRequest head, RequestBody body, SocketAddress remote, SocketAddress local, long startNanos,
                     String protocol, boolean secure, String connectProtocol) {
        this.connectProtocol = connectProtocol;
        this.times = new RequestTimes(startNanos, RequestStart.parseMicros(head.headers().get("x-request-start")));
        // most requests send no id: one look-up, no list, for them
        this.requestId = head.headers().contains(RequestId.HEADER) ? RequestId.of(head.headers().getAll(RequestId.HEADER))
            : RequestId.make();
        this.protocol = protocol != null ? protocol : head.protocolVersion().text();
        this.secure = secure;
        this.head = head;
        this.body = body;
        this.remote = remote instanceof InetSocketAddress ? (InetSocketAddress) remote : null;
        this.local = local instanceof InetSocketAddress ? (InetSocketAddress) local : null;
        this.upgrade = Upgrade.of(this);
    }

    @Override
    public RequestTimes times() {
        return times;
    }

    @Override
    public String requestId() {
        return requestId;
    }

    public HttpRequest head() {
        return head;
    }

    boolean isHead() {
        return "HEAD".equals(head.method().name());
    }

    boolean keepAlive() {
        return HttpUtil.isKeepAlive(head);
    }

    @Override
    public String method() {
        return head.method().name();
    }

    @Override
    public String target() {
        return head.uri();
    }

    @Override
    public String protocol() {
        return protocol;
    }

    @Override
    public String scheme() {
        return secure ? "https" : "http";
    }

    @Override
    public void forEachHeader(HeaderVisitor visitor) {
        HttpHeaders headers = head.headers();
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> e = it.next();
            visitor.header(e.getKey(), e.getValue());
        }
    }

    @Override
    public String header(String name) {
        return head.headers().get(name);
    }

    @Override
    public List<String> headers(String name) {
        return head.headers().getAll(name);
    }

    @Override
    public String remoteAddress() {
        return remote == null ? "127.0.0.1" : remote.getAddress().getHostAddress();
    }

    @Override
    public int remotePort() {
        return remote == null ? 0 : remote.getPort();
    }

    @Override
    public String localAddress() {
        return local == null ? "localhost" : local.getAddress().getHostAddress();
    }

    @Override
    public int localPort() {
        return local == null ? 0 : local.getPort();
    }

    @Override
    public RequestBody body() {
        return body;
    }

    /** HTTP/1.x over a socket this door owns; an h2 stream shares its connection with others. */
    @Override
    public boolean hijackable() {
        return protocol.startsWith("HTTP/1");
    }

    @Override
    public Upgrade upgrade() {
        return upgrade;
    }

    @Override
    public String connectProtocol() {
        return connectProtocol;
    }
}
