package org.nettyrack.jruby;

import org.jcodings.Encoding;
import org.jcodings.specific.USASCIIEncoding;
import org.jcodings.specific.UTF8Encoding;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyHash;
import org.jruby.RubyNumeric;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.StringSupport;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.push.PushClient;
import org.nettyrack.core.push.Replay;
import org.nettyrack.core.push.SseEvent;

/**
 * {@code Nettyrack::Client}: the {@code client} every push callback receives (iodine's and
 * Agoo's contract). Safe to keep and use from any thread: {@code write} queues and returns at
 * once. Before {@code on_open} and after {@code on_close} it acts closed. It calls no Ruby
 * itself: a subscription's block is run by its connection's {@link PushBridge} endpoint.
 *
 * <pre>
 * client.write(data)             # true, or false once closed (or over the queue limit)
 * client.write(data, event: "tick", id: "7", retry: 3000)   # SSE only
 * client.close / open? / pending / env / protocol / timeout / timeout=
 * client.subscribe(channel[, from: id]) [{ |channel, message, id| ... }]   # :live, :resumed or :reset
 * client.unsubscribe(channel) / publish(channel, message)
 * </pre>
 */
@JRubyClass(name = "Nettyrack::Client")
public final class RubyClient extends RubyObject {
    private static final long serialVersionUID = 1L;

    private final transient IRubyObject env;
    private final transient IRubyObject protocol;
    private final transient PushBridge.Endpoint endpoint;
    private transient volatile PushClient client;
    private transient volatile boolean closed;

    RubyClient(Ruby runtime, RubyClass type) {
        this(runtime, type, runtime.getNil(), runtime.getNil(), null);
    }

    RubyClient(Ruby runtime, RubyClass type, IRubyObject env, IRubyObject protocol, PushBridge.Endpoint endpoint) {
        super(runtime, type);
        this.env = env;
        this.protocol = protocol;
        this.endpoint = endpoint;
    }

    void bind(PushClient pushClient) {
        this.client = pushClient;
    }

    void closed() {
        closed = true;
        PushClient c = client;
        if (c != null) {
            c.closed();
        }
    }

    private PushClient live() {
        PushClient c = client;
        return closed || c == null ? null : c;
    }

    /**
     * Queues data: a WebSocket text message when the string is valid UTF-8 (or US-ASCII),
     * binary otherwise; an SSE {@code data:} event, with {@code id:}, {@code event:} and
     * {@code retry:} fields from the options.
     */
    @JRubyMethod(required = 1, optional = 1)
    public IRubyObject write(ThreadContext context, IRubyObject[] args) {
        RubyString data = args[0].asString();
        RubyHash options = args.length > 1 && args[1] instanceof RubyHash ? (RubyHash) args[1] : null;
        PushClient c = live();
        if (c == null) {
            return context.fals;
        }
        byte[] bytes = data.getByteList().bytes();
        if (options == null || options.isEmpty()) {
            return context.runtime.newBoolean(c.write(bytes, isText(data)));
        }
        String id = option(context, options, "id");
        String event = option(context, options, "event");
        IRubyObject retry = options.fastARef(context.runtime.newSymbol("retry"));
        long retryMillis = retry == null || retry.isNil() ? -1 : RubyNumeric.num2long(retry);
        try {
            return context.runtime.newBoolean(c.writeEvent(id, event, retryMillis, bytes));
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw context.runtime.newArgumentError(e.getMessage());
        }
    }

    private static String option(ThreadContext context, RubyHash options, String name) {
        IRubyObject value = options.fastARef(context.runtime.newSymbol(name));
        return value == null || value.isNil() ? null : value.asString().toString();
    }

    private static boolean isText(RubyString data) {
        Encoding encoding = data.getEncoding();
        return (encoding == UTF8Encoding.INSTANCE || encoding == USASCIIEncoding.INSTANCE)
            && data.scanForCodeRange() != StringSupport.CR_BROKEN;
    }

    @JRubyMethod
    public IRubyObject close(ThreadContext context) {
        PushClient c = live();
        if (c != null) {
            c.connection().close();
        }
        return context.nil;
    }

    @JRubyMethod(name = "open?")
    public IRubyObject open_p(ThreadContext context) {
        PushClient c = live();
        return context.runtime.newBoolean(c != null && c.connection().isOpen());
    }

    /** Writes queued and not yet sent; -1 once closed. */
    @JRubyMethod
    public IRubyObject pending(ThreadContext context) {
        PushClient c = live();
        return context.runtime.newFixnum(c == null ? -1 : c.connection().pending());
    }

    @JRubyMethod
    public IRubyObject env(ThreadContext context) {
        return env;
    }

    /** {@code :websocket} or {@code :sse}. */
    @JRubyMethod
    public IRubyObject protocol(ThreadContext context) {
        return protocol;
    }

    /** Seconds of quiet before a ping (WebSocket) or keep-alive comment (SSE). */
    @JRubyMethod
    public IRubyObject timeout(ThreadContext context) {
        PushClient c = client;
        return c == null ? context.nil : context.runtime.newFloat(c.connection().timeoutMillis() / 1000.0);
    }

    @JRubyMethod(name = "timeout=")
    public IRubyObject set_timeout(ThreadContext context, IRubyObject seconds) {
        double value = RubyNumeric.num2dbl(seconds);
        PushClient c = live();
        if (c != null) {
            try {
                c.connection().timeoutMillis(Math.round(value * 1000));
            } catch (IllegalArgumentException e) {
                throw context.runtime.newArgumentError(e.getMessage());
            }
        }
        return seconds;
    }

    /**
     * Messages published to the channel go to this client: written as they are, or, with a
     * block, passed to it ({@code |channel, message, id|}, id nil without history) in this
     * connection's callback order. {@code from: id} resumes after that id when a history is
     * kept; an event stream resumes from its {@code Last-Event-ID} (or {@code ?last_event_id=})
     * unless {@code from:} is given ({@code from: nil}: live only). Returns {@code :live},
     * {@code :resumed} or {@code :reset} (see {@link PushClient#subscribe(String, PubSub.Subscriber,
     * String)}), false once closed.
     */
    @JRubyMethod(required = 1, optional = 1)
    public IRubyObject subscribe(ThreadContext context, IRubyObject[] args, Block block) {
        PushClient c = live();
        if (c == null) {
            return context.fals;
        }
        PubSub.Subscriber handler = block.isGiven()
            ? endpoint.subscriber(context.runtime.newProc(Block.Type.PROC, block))
            : null;
        Replay.Outcome outcome = c.subscribe(args[0].asString().toString(), handler, position(context, args, c));
        return outcome == null ? context.fals : context.runtime.newSymbol(outcome.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The from: option, or for an event stream without it, where the client asks to resume. */
    private String position(ThreadContext context, IRubyObject[] args, PushClient c) {
        if (args.length > 1) {
            if (!(args[1] instanceof RubyHash options) || options.size() != 1
                    || !options.containsKey(context.runtime.newSymbol("from"))) {
                throw context.runtime.newArgumentError("subscribe takes a channel and from: ID, got " + args[1].inspect());
            }
            IRubyObject from = options.fastARef(context.runtime.newSymbol("from"));
            return from == null || from.isNil() ? null : from.asString().toString();
        }
        if (c.connection().protocol() != Upgrade.SSE || !(env instanceof RubyHash rack)) {
            return null;
        }
        return SseEvent.lastEventId(text(rack, "HTTP_LAST_EVENT_ID"), text(rack, "QUERY_STRING"));
    }

    private static String text(RubyHash env, String key) {
        Object value = env.get(key);
        return value == null ? null : value.toString();
    }

    @JRubyMethod
    public IRubyObject unsubscribe(ThreadContext context, IRubyObject channel) {
        PushClient c = client;
        return context.runtime.newBoolean(c != null && c.unsubscribe(channel.asString().toString()));
    }

    @JRubyMethod
    public IRubyObject publish(ThreadContext context, IRubyObject channel, IRubyObject message) {
        PushClient c = client;
        if (c == null) {
            return context.fals;
        }
        c.publish(channel.asString().toString(), message.asString().getByteList().bytes());
        return context.tru;
    }
}
