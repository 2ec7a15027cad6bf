package org.nettyrack.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.bootstrap.ServerBootstrapConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import java.net.BindException;
import org.nettyrack.core.ServerConfig;

/**
 * Binds one server's {@code unix://} listeners on the transport's domain socket channel, with
 * the TCP bootstrap's event loops, pipeline and connection options (less TCP_NODELAY, and
 * half-closure where NIO lacks it), {@code backlog} from the bind's params else the TCP one.
 * Its {@link UnixSocketFile} is checked before the bind and given its mode after; closing
 * the listener deletes the file.
 */
final class UnixListeners {
    private UnixListeners() {
    }

    /** Throws {@link BindException} with one sentence when the path cannot be listened on. */
    static Channel bind(Transport transport, ServerBootstrap tcp, ServerConfig.Bind bind)
        throws BindException, InterruptedException {
        UnixSocketFile file = new UnixSocketFile(bind);
        file.prepare();
        ServerBootstrapConfig base = tcp.config();
        ServerBootstrap unix = new ServerBootstrap()
            .group(base.group(), base.childGroup())
            .channel(transport.domainServerChannel())
            .childHandler(base.childHandler());
        boolean epoll = "epoll".equals(transport.name()); // NIO's domain channel cannot half-close
        base.childOptions().forEach((option, value) -> {
            if (option != ChannelOption.TCP_NODELAY && (option != ChannelOption.ALLOW_HALF_CLOSURE || epoll)) {
                childOption(unix, option, value);
            }
        });
        String param = bind.params().get("backlog");
        Integer backlog = param != null ? Integer.valueOf(param) : (Integer) base.options().get(ChannelOption.SO_BACKLOG);
        if (backlog != null) {
            unix.option(ChannelOption.SO_BACKLOG, backlog);
        }
        Channel listener;
        try {
            listener = unix.bind(transport.domainAddress(file.path())).sync().channel();
        } catch (Exception e) {
            BindException failure = new BindException("cannot listen on " + bind.url() + ": " + e.getMessage());
            failure.initCause(e);
            throw failure;
        }
        try {
            file.bound();
        } catch (BindException e) {
            listener.close().await();
            throw e;
        }
        return listener;
    }

    @SuppressWarnings("unchecked")
    private static <T> void childOption(ServerBootstrap bootstrap, ChannelOption<T> option, Object value) {
        bootstrap.childOption(option, (T) value);
    }

}
