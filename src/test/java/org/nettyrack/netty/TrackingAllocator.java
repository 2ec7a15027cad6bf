package org.nettyrack.netty;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * An unpooled allocator that remembers every buffer it hands out, so a test can tell right
 * after a connection closed whether all of them were released: exact and immediate, where a
 * leak detector has to wait for the garbage collector. Buffers still pass through Netty's leak
 * detector (see {@link LeakReports}). One per connection, used from the test thread.
 */
final class TrackingAllocator extends AbstractByteBufAllocator {
    private final List<ByteBuf> allocated = new ArrayList<>();

    TrackingAllocator() {
        super(false);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return remember(new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return remember(new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        CompositeByteBuf buf = super.compositeHeapBuffer(maxNumComponents);
        allocated.add(buf);
        return buf;
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        CompositeByteBuf buf = super.compositeDirectBuffer(maxNumComponents);
        allocated.add(buf);
        return buf;
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** How many buffers handed out are still referenced. */
    int unreleased() {
        int n = 0;
        for (ByteBuf buf : allocated) {
            if (buf.refCnt() > 0) {
                n++;
            }
        }
        return n;
    }

    int allocations() {
        return allocated.size();
    }

    /** Remembers the buffer and hands it out wrapped for Netty's leak detector. */
    private ByteBuf remember(ByteBuf buf) {
        allocated.add(buf);
        return toLeakAwareBuffer(buf);
    }
}
