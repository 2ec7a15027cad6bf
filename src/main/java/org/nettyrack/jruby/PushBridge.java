package org.nettyrack.jruby;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jcodings.specific.ASCIIEncoding;
import org.jcodings.specific.UTF8Encoding;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyProc;
import org.jruby.RubyString;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.runtime.callsite.CachingCallSite;
import org.jruby.runtime.callsite.NormalCachingCallSite;
import org.jruby.util.ByteList;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.push.PushClient;
import org.nettyrack.core.push.PushSession;

/**
 * The one place push enters Ruby, as {@link RackBridge} is for requests: adapts
 * {@code env['rack.upgrade']} handlers to {@link PushEndpoint}, and runs the blocks given to
 * {@code client.subscribe}. Both arrive from the connection's {@link PushSession}, on worker
 * threads, one at a time per connection and in order; a callback or block that raises is
 * reported to {@code rack.errors} and the connection goes on.
 *
 * <p>Which callbacks a handler has ({@code on_open}, {@code on_message}, {@code on_drained},
 * {@code on_shutdown}, {@code on_close}) is checked once, when the connection is accepted, not
 * per event. Each callback gets the connection's {@link RubyClient}.
 */
final class PushBridge {
    private final Ruby runtime;
    private final AppErrors errors;
    private final PubSub pubsub;
    private final RubyClass clientClass;
    /** The connections open now (on_open called, on_close not yet), for {@link #sendAway}. */
    private final Set<PushConnection> open = ConcurrentHashMap.newKeySet();

    PushBridge(Ruby runtime, AppErrors errors, PubSub pubsub) {
        this.runtime = runtime;
        this.errors = errors;
        this.pubsub = pubsub;
        this.clientClass = NettyrackLibrary.clientClass(runtime);
    }

    /**
     * Sends every connection of this runtime away ({@code on_shutdown}, then 1001), those that
     * open meanwhile too, and waits until all have ended; false if {@code timeoutMillis} passed first.
     */
    boolean sendAway(long timeoutMillis) throws InterruptedException {
        Set<PushConnection> asked = new HashSet<>();
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            for (PushConnection connection : open) {
                if (asked.add(connection)) {
                    connection.shutdown();
                }
            }
            if (open.isEmpty()) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(10);
        }
    }

    /** An endpoint for one accepted upgrade; called on the worker that ran the app. */
    PushEndpoint open(IRubyObject handler, IRubyObject env, Upgrade protocol) {
        return new Endpoint(handler, env, runtime.newSymbol(protocol.rackName()));
    }

    /** One connection's handler, and its client's subscription blocks. */
    final class Endpoint implements PushEndpoint {
        private final IRubyObject handler;
        private final RubyClient client;
        private final CachingCallSite onOpen;
        private final CachingCallSite onMessage;
        private final CachingCallSite onDrained;
        private final CachingCallSite onShutdown;
        private final CachingCallSite onClose;

        Endpoint(IRubyObject handler, IRubyObject env, IRubyObject protocol) {
            this.handler = handler;
            this.client = new RubyClient(runtime, clientClass, env, protocol, this);
            this.onOpen = callback("on_open");
            this.onMessage = callback("on_message");
            this.onDrained = callback("on_drained");
            this.onShutdown = callback("on_shutdown");
            this.onClose = callback("on_close");
        }

        private CachingCallSite callback(String name) {
            return handler.respondsTo(name) ? new NormalCachingCallSite(name) : null;
        }

        @Override
        public void onOpen(PushConnection connection) {
            open.add(connection);
            client.bind(new PushClient(connection, pubsub));
            call(onOpen, "on_open");
        }

        @Override
        public void onMessage(PushConnection connection, byte[] data, boolean text) {
            if (onMessage == null) {
                return;
            }
            RubyString message = RubyString.newString(runtime,
                new ByteList(data, text ? UTF8Encoding.INSTANCE : ASCIIEncoding.INSTANCE, false));
            ThreadContext context = runtime.getCurrentContext();
            try {
                onMessage.call(context, handler, handler, client, message);
            } catch (RaiseException e) {
                errors.report(context, "Error in on_message", e);
            }
        }

        @Override
        public void onDrained(PushConnection connection) {
            call(onDrained, "on_drained");
        }

        @Override
        public void onShutdown(PushConnection connection) {
            call(onShutdown, "on_shutdown");
        }

        @Override
        public void onClose(PushConnection connection) {
            try {
                call(onClose, "on_close");
            } finally {
                client.closed();
                if (connection != null) { // a connection that failed before it opened has none
                    open.remove(connection);
                }
            }
        }

        /**
         * What {@code client.subscribe(channel) { |channel, message, id| ... }} subscribes: the
         * block, run by the session in this connection's callback order; a block taking two
         * arguments is not given the id.
         */
        PubSub.Subscriber subscriber(RubyProc block) {
            int arity = block.getBlock().getSignature().arityValue();
            boolean takesId = arity < 0 || arity >= 3;
            return message -> {
                ThreadContext context = runtime.getCurrentContext();
                try {
                    IRubyObject channel = RubyString.newString(runtime, message.channel());
                    IRubyObject data = RubyString.newString(runtime, new ByteList(message.data(),
                        message.text() ? UTF8Encoding.INSTANCE : ASCIIEncoding.INSTANCE, false));
                    if (takesId) {
                        block.call(context, channel, data,
                            message.id() == null ? runtime.getNil() : RubyString.newString(runtime, message.id().toString()));
                    } else {
                        block.call(context, channel, data);
                    }
                } catch (RaiseException e) {
                    errors.report(context, "Error in the subscribe block of " + message.channel(), e);
                }
            };
        }

        private void call(CachingCallSite site, String name) {
            if (site == null) {
                return;
            }
            ThreadContext context = runtime.getCurrentContext();
            try {
                site.call(context, handler, handler, client);
            } catch (RaiseException e) {
                errors.report(context, "Error in " + name, e);
            }
        }
    }
}
