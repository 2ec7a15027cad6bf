package org.nettyrack.netty.listen;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolException;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol.AddressFamily;
import io.netty.util.AttributeKey;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import org.nettyrack.core.ErrorLog;

/**
 * With {@code --proxy-protocol}, a connection opens with a PROXY protocol header from the load
 * balancer in front, and its source address stands for the client (REMOTE_ADDR, the access
 * log, the push env). Netty's {@link HAProxyMessageDecoder} reads that header (v1 or v2,
 * told apart by the v2 signature); this handler, right behind it, keeps the address:
 * <pre>
 * timeouts → PROXY decoder → proxy → HTTP decoder → ...
 * </pre>
 * The decoder leaves the pipeline after one header, passing the bytes that followed it to the
 * HTTP decoder; this handler leaves after recording the address. So a header counts only as
 * the very first bytes of a connection: one arriving later on a keep-alive connection is an
 * HTTP request line like any other, and malformed (400), never a new address (Puma's
 * CVE-2026-47737).
 *
 * <p>LOCAL (the proxy's own health check), UNKNOWN, and address families other than IPv4 and
 * IPv6 keep the socket's address, as the spec asks; TLVs are ignored. A connection that does
 * not open with a valid header is closed by the decoder without a reply (the spec: a receiver
 * must not guess, and drops the connection), and logged here. One still incomplete when the
 * header timeout expires gets {@code RequestTimeouts}' 408 like any slow request head.
 */
public final class ProxyProtocolHandler extends ChannelInboundHandlerAdapter {
    private static final AttributeKey<InetSocketAddress> CLIENT =
        AttributeKey.valueOf(ProxyProtocolHandler.class, "client");

    private final ErrorLog errorLog;
    private boolean refused;

    public ProxyProtocolHandler(ErrorLog errorLog) {
        this.errorLog = errorLog;
    }

    /** The client: the PROXY header's source address when the connection had one, else the peer. */
    public static SocketAddress clientAddress(Channel connection) {
        InetSocketAddress proxied = connection.attr(CLIENT).get();
        return proxied != null ? proxied : connection.remoteAddress();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HAProxyMessage)) {
            ctx.fireChannelRead(msg);
            return;
        }
        HAProxyMessage header = (HAProxyMessage) msg;
        InetSocketAddress source;
        try {
            source = source(header);
        } finally {
            header.release();
        }
        if (refused) {
            return; // parsed behind a bad opening, as the connection closes: no header
        }
        if (source != null) {
            ctx.channel().attr(CLIENT).set(source);
        }
        ctx.pipeline().remove(this);
    }

    /** The proxied client's address, or null when the socket's address stands. */
    static InetSocketAddress source(HAProxyMessage header) {
        AddressFamily family = header.proxiedProtocol().addressFamily();
        if (header.command() != HAProxyCommand.PROXY
            || (family != AddressFamily.AF_IPv4 && family != AddressFamily.AF_IPv6)) {
            return null;
        }
        InetAddress address = NetUtil.createInetAddressFromIpAddressString(header.sourceAddress());
        return address == null ? null : new InetSocketAddress(address, header.sourcePort());
    }

    /**
     * The decoder closes the connection on a bad header, but parses what is left once more as
     * the connection goes inactive: only the first complaint counts, and nothing after it.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof HAProxyProtocolException)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        if (!refused) {
            refused = true;
            errorLog.log("closed a connection from " + describe(ctx.channel())
                + " that did not open with a valid PROXY protocol header (" + printable(rootMessage(cause)) + ")");
        }
        ctx.close();
    }

    /** The peer's IP address and port; a unix socket's peer has none, so the socket names it. */
    private static String describe(Channel channel) {
        SocketAddress peer = channel.remoteAddress();
        if (peer instanceof InetSocketAddress) {
            InetSocketAddress inet = (InetSocketAddress) peer;
            return NetUtil.toSocketAddressString(inet.getAddress().getHostAddress(), inet.getPort());
        }
        SocketAddress local = channel.localAddress();
        if (local instanceof DomainSocketAddress || local instanceof UnixDomainSocketAddress) {
            return "a client of unix://" + local;
        }
        return String.valueOf(peer);
    }

    /** The decoder wraps the parser's complaint, sometimes twice: the innermost says what was wrong. */
    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    /** The decoder's message may quote what the peer sent: no control bytes reach the log. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(text == null ? 0 : text.length());
        if (text != null) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                out.append(c < 0x20 || c >= 0x7f ? '?' : c);
            }
        }
        return out.toString();
    }
}
