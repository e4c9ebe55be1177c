package net.beaconcontroller.maple.internal;

import java.nio.ByteBuffer;

/** Frames as a switch would send them to the controller, byte by byte. */
final class Frames {
    static final long BROADCAST = 0xffff_ffff_ffffL;

    private Frames() {
    }

    /** A TCP SYN from {@code src} (10.0.0.1) to {@code dst} (10.0.0.2). */
    static byte[] tcp(long src, long dst, int tpSrc, int tpDst) {
        var b = ByteBuffer.allocate(14 + 20 + 20);
        ethernet(b, dst, src, 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) 40).putInt(0).put((byte) 64).put((byte) 6)
                .putShort((short) 0).putInt(0x0a000001).putInt(0x0a000002);
        b.putShort((short) tpSrc).putShort((short) tpDst).putInt(1).putInt(0).put((byte) 0x50).put((byte) 0x02)
                .putShort((short) 1024).putInt(0);
        return b.array();
    }

    /** An ARP request from {@code src} (10.0.0.1) for 10.0.0.2, broadcast. */
    static byte[] arpRequest(long src) {
        var b = ByteBuffer.allocate(14 + 28);
        ethernet(b, BROADCAST, src, 0x0806);
        b.putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4).putShort((short) 1);
        mac(b, src);
        b.putInt(0x0a000001);
        mac(b, 0);
        b.putInt(0x0a000002);
        return b.array();
    }

    private static void ethernet(ByteBuffer b, long dst, long src, int type) {
        mac(b, dst);
        mac(b, src);
        b.putShort((short) type);
    }

    private static void mac(ByteBuffer b, long mac) {
        b.putShort((short) (mac >>> 32)).putInt((int) mac);
    }
}
