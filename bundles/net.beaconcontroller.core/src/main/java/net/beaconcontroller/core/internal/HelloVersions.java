package net.beaconcontroller.core.internal;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMessage;

/** What a switch's HELLO says of the OpenFlow versions it speaks. */
final class HelloVersions {
    private HelloVersions() {
    }

    /** Whether the peer of {@code hello} speaks OpenFlow 1.0, the only version Beacon speaks. */
    static boolean offersOpenFlow10(OFHello hello) {
        if (hello.version() == OFMessage.VERSION) {
            return true;
        }
        if (hello.version() < OFMessage.VERSION) {
            return false;
        }
        // OpenFlow 1.3.1+ peers list their versions in a bitmap element (type 1); without one, the lower version wins.
        var body = ByteBuffer.wrap(hello.elements().toByteArray());
        while (body.remaining() >= 4) {
            int type = body.getShort(body.position()) & 0xffff;
            int length = body.getShort(body.position() + 2) & 0xffff;
            if (length < 4 || length > body.remaining()) {
                return true;
            }
            if (type == 1 && length >= 8) {
                return (body.getInt(body.position() + 4) & (1 << OFMessage.VERSION)) != 0;
            }
            int padded = (length + 7) & ~7;
            if (padded > body.remaining()) {
                return true;
            }
            body.position(body.position() + padded);
        }
        return true;
    }
}
