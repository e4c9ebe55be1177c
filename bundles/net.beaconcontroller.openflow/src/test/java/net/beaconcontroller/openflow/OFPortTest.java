package net.beaconcontroller.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OFPortTest {
    @ParameterizedTest
    @CsvSource({
        "65528, IN_PORT", "65529, TABLE", "65530, NORMAL", "65531, FLOOD", "65532, ALL", "65533, CONTROLLER",
        "65534, LOCAL", "65535, NONE", "0, 0", "1, 1", "65280, 65280", "65527, 65527"})
    void printsReservedPortsByNameAndOthersInDecimal(int port, String text) {
        assertEquals(text, OFPort.toString(port));
        assertEquals(port, OFPort.parse(text));
    }

    @Test
    void theConstantsAreTheSpecificationValues() {
        assertEquals(0xff00, OFPort.MAX);
        assertEquals(0xfff8, OFPort.IN_PORT);
        assertEquals(0xfff9, OFPort.TABLE);
        assertEquals(0xfffa, OFPort.NORMAL);
        assertEquals(0xfffb, OFPort.FLOOD);
        assertEquals(0xfffc, OFPort.ALL);
        assertEquals(0xfffd, OFPort.CONTROLLER);
        assertEquals(0xfffe, OFPort.LOCAL);
        assertEquals(0xffff, OFPort.NONE);
    }

    @ParameterizedTest
    @CsvSource({"local, 65534", "Controller, 65533", "in_port, 65528", "0xff00, 65280", "0XFFFF, 65535",
        "007, 7"})
    void parsesNamesInAnyCaseAndHexNumbers(String text, int port) {
        assertEquals(port, OFPort.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "+1", "65536", "0x10000", "0x", "eth0", "1.5", " 1", "\u0661"})
    void rejectsWhatIsNotAPortNamingIt(String text) {
        var e = assertThrows(IllegalArgumentException.class, () -> OFPort.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    @Test
    void physicalPortsAreOneToMax() {
        assertFalse(OFPort.isPhysical(0));
        assertTrue(OFPort.isPhysical(1));
        assertTrue(OFPort.isPhysical(OFPort.MAX));
        assertFalse(OFPort.isPhysical(OFPort.MAX + 1));
        assertFalse(OFPort.isPhysical(OFPort.LOCAL));
    }
}
