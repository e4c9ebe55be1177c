/** Port statistics polled from the switches: bandwidth per port. */
package net.beaconcontroller.statistics;
