/** Beacon's web platform: what a bundle implements to add REST endpoints (see {@link IWebManageable}). */
package net.beaconcontroller.web;
