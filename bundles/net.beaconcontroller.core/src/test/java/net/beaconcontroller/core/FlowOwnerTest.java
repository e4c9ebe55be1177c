package net.beaconcontroller.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FlowOwnerTest {
    @Test
    void aCookieCarriesTheSignatureTheOwnerAndItsData() {
        long c = FlowOwner.ROUTING.cookie(0x1234);
        assertEquals(0xbe01_0000_0000_1234L, c);
        assertEquals(1, FlowOwner.ownerId(c));
        assertEquals(0x1234, FlowOwner.data(c));
        assertTrue(FlowOwner.ROUTING.owns(c));
        assertFalse(FlowOwner.STATIC_FLOWS.owns(c));
        assertEquals("routing", FlowOwner.describe(c));
    }

    @Test
    void theClustersMarkerCookiesNameTheClusterAndOtherCookiesAreForeign() {
        assertEquals("cluster", FlowOwner.describe(0xbeac_0000_0000_0005L));
        assertEquals(-1, FlowOwner.ownerId(0));
        assertEquals(-1, FlowOwner.ownerId(0x726f_7574_6500_0000L), "routing's cookie before owners");
        assertEquals(-1, FlowOwner.ownerId(0xbe00_0000_0000_0001L), "owner 0 is no owner");
        assertEquals("foreign", FlowOwner.describe(0x42));
        assertEquals("owner-0x81", FlowOwner.describe(new FlowOwner(0x81, "x").cookie()));
    }

    @Test
    void ownerDataAndIdsAreBounded() {
        assertThrows(IllegalArgumentException.class, () -> FlowOwner.ROUTING.cookie(1L << 48));
        assertThrows(IllegalArgumentException.class, () -> new FlowOwner(0, "none"));
        assertThrows(IllegalArgumentException.class, () -> new FlowOwner(256, "big"));
    }
}
