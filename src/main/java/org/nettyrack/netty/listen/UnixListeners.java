package org.nettyrack.netty.listen;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.bootstrap.ServerBootstrapConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import java.net.BindException;
import org.nettyrack.core.config.Bind;

/**
 * Binds one server's {@code unix://} listeners on the transport's domain socket channel, with
 * the TCP bootstrap's event loops, pipeline and options (less SO_REUSEADDR and TCP_NODELAY,
 * and half-closure where NIO lacks it), {@code backlog} from the bind's params else the TCP one.
 * Its {@link UnixSocketFile} is checked before the bind and given its mode after; closing
 * the listener deletes the file.
 */
final class UnixListeners {
    private UnixListeners() {
    }

    /** Throws {@link BindException} with one sentence when the path cannot be listened on. */
    static Channel bind(Transport transport, ServerBootstrap tcp, Bind bind)
        throws BindException, InterruptedException {
        UnixSocketFile file = new UnixSocketFile(bind);
        file.prepare();
        Channel listener;
        try {
            listener = bootstrap(transport, tcp, bind).bind(transport.domainAddress(file.path())).sync().channel();
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

    /**
     * A bootstrap for the domain socket channel with {@code tcp}'s event loops, pipeline and
     * options (less those a domain socket has not), {@code backlog} from the bind's params.
     */
    static ServerBootstrap bootstrap(Transport transport, ServerBootstrap tcp, Bind bind) {
        return like(tcp, new ServerBootstrap().channel(transport.domainServerChannel()), transport, bind);
    }

    /**
     * {@code unix} given {@code tcp}'s event loops, pipeline and options, less those a domain
     * socket has not (SO_REUSEADDR, TCP_NODELAY, and half-closure on NIO), {@code backlog} from
     * the bind's params; its channel is the caller's to set.
     */
    static ServerBootstrap like(ServerBootstrap tcp, ServerBootstrap unix, Transport transport, Bind bind) {
        ServerBootstrapConfig base = tcp.config();
        unix.group(base.group(), base.childGroup()).childHandler(base.childHandler());
        boolean epoll = "epoll".equals(transport.name()); // NIO's domain channel cannot half-close
        base.options().forEach((option, value) -> {
            if (option != ChannelOption.SO_REUSEADDR) {
                option(unix, option, value);
            }
        });
        base.childOptions().forEach((option, value) -> {
            if (option != ChannelOption.TCP_NODELAY && (option != ChannelOption.ALLOW_HALF_CLOSURE || epoll)) {
                childOption(unix, option, value);
            }
        });
        String backlog = bind.params().get("backlog");
        if (backlog != null) {
            unix.option(ChannelOption.SO_BACKLOG, Integer.valueOf(backlog));
        }
        return unix;
    }

    /** Sets an option read back from another bootstrap's config, whose type is the option's own. */
    @SuppressWarnings("unchecked")
    static <T> void option(ServerBootstrap bootstrap, ChannelOption<T> option, Object value) {
        bootstrap.option(option, (T) value);
    }

    @SuppressWarnings("unchecked")
    static <T> void childOption(ServerBootstrap bootstrap, ChannelOption<T> option, Object value) {
        bootstrap.childOption(option, (T) value);
    }
}
