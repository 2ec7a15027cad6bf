package org.nettyrack.netty.push;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * One direct buffer for a payload that many connections of an event loop send in turn (a
 * broadcast hands each event loop one task with all of its subscribers), each connection
 * writing a duplicate of it. The epoll transport writes only direct buffers: given the shared
 * heap array it would copy it into a direct buffer of its own for every connection, and a
 * broadcast of 16 KB to 10,000 clients that do not read would hold 160 MB of direct memory per
 * message until the JVM's limit stopped every event loop. The last payload is kept per event
 * loop, known by the array's identity; a write from another thread wraps the array as before.
 */
final class SharedPayload {
    private static final FastThreadLocal<SharedPayload> LAST = new FastThreadLocal<>() {
        @Override
        protected SharedPayload initialValue() {
            return new SharedPayload();
        }
    };

    private byte[] data;
    private ByteBuf direct;

    /** The payload to write on channel: a duplicate of the event loop's shared copy, or the array wrapped. */
    static ByteBuf of(Channel channel, byte[] data) {
        if (!channel.eventLoop().inEventLoop() || data.length == 0) {
            return Unpooled.wrappedBuffer(data);
        }
        return LAST.get().duplicate(channel, data);
    }

    private ByteBuf duplicate(Channel channel, byte[] payload) {
        if (payload != data) {
            if (direct != null) {
                direct.release(); // the duplicates written still hold it until they are sent
            }
            direct = channel.alloc().directBuffer(payload.length).writeBytes(payload);
            data = payload;
        }
        return direct.retainedDuplicate();
    }
}
