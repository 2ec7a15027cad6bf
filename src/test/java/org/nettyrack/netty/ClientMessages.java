package org.nettyrack.netty;

import com.jcraft.jzlib.Deflater;
import com.jcraft.jzlib.GZIPException;
import com.jcraft.jzlib.JZlib;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;

/**
 * What a WebSocket client puts on the wire for one message: masked frames of any length, the
 * message split over continuation frames if asked, each frame's payload compressed per
 * RFC 7692 when the connection has a compressor (RSV1 on the first frame only, a sync flush
 * ending each frame, the 00 00 FF FF tail removed from the last). The compressor is zlib (JZlib)
 * with a chosen memLevel: Python's websockets uses 5, browsers and Node's ws the default 8.
 */
public final class ClientMessages {
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    private static final byte[] MASK = {0x37, (byte) 0xfa, 0x21, 0x3d};

    private final Deflater deflater;

    private ClientMessages(Deflater deflater) {
        this.deflater = deflater;
    }

    public static ClientMessages uncompressed() {
        return new ClientMessages(null);
    }

    /** A compressor with context takeover and a 15-bit window, as agreed by default. */
    public static ClientMessages deflate(int memLevel) {
        try {
            return new ClientMessages(new Deflater(6, 15, memLevel, JZlib.WrapperType.NONE));
        } catch (GZIPException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Bytes that deflate to almost nothing. */
    public static byte[] compressible(int size) {
        byte[] data = new byte[size];
        Arrays.fill(data, (byte) 'a');
        return data;
    }

    /** Bytes that deflate cannot shrink: the compressed form is larger than the message. */
    public static byte[] random(int size) {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        return data;
    }

    /** The frames of one message in {@code fragments} parts of about equal size, as one byte array. */
    public byte[] message(int opcode, byte[] data, int fragments) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int part = (data.length + fragments - 1) / fragments;
        for (int i = 0; i < fragments; i++) {
            int from = Math.min(data.length, i * part);
            int to = Math.min(data.length, from + part);
            boolean last = i == fragments - 1;
            byte[] payload = Arrays.copyOfRange(data, from, to);
            if (deflater != null) {
                payload = compress(payload, last);
            }
            out.writeBytes(frame(i == 0 ? opcode : 0x0, last, deflater != null && i == 0, payload));
        }
        return out.toByteArray();
    }

    /** The payload of a frame as this client compresses it (exposed to build bad frames from). */
    public byte[] compress(byte[] data, boolean last) {
        deflater.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        do {
            deflater.setOutput(buffer);
            int status = deflater.deflate(JZlib.Z_SYNC_FLUSH);
            if (status != JZlib.Z_OK && status != JZlib.Z_BUF_ERROR) {
                throw new IllegalStateException("deflate: " + status);
            }
            out.write(buffer, 0, deflater.next_out_index);
        } while (deflater.avail_out == 0 || deflater.avail_in > 0);
        byte[] compressed = out.toByteArray();
        return last ? Arrays.copyOf(compressed, compressed.length - 4) : compressed;
    }

    /** One masked client frame. */
    public static byte[] frame(int opcode, boolean fin, boolean rsv1, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode);
        int n = payload.length;
        if (n < 126) {
            out.write(0x80 | n);
        } else if (n < 65536) {
            out.write(0x80 | 126);
            out.write(n >> 8);
            out.write(n);
        } else {
            out.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) ((long) n >> shift));
            }
        }
        out.writeBytes(MASK);
        for (int i = 0; i < n; i++) {
            out.write(payload[i] ^ MASK[i & 3]);
        }
        return out.toByteArray();
    }
}
