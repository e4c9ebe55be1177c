/**
 * Floodlight v1.2's REST dialect for OpenFlow 1.0: its match keys, its action text and its JSON shapes of switch
 * statistics, so scripts written for Floodlight work against Beacon unchanged.
 */
package net.beaconcontroller.web.floodlight;
