import { CIS_CONTROLS } from './cis-controls.js';
import type { Framework, FrameworkId } from './framework-types.js';
import { HIPAA } from './hipaa.js';
import { ISO27001 } from './iso27001.js';
import { NIST } from './nist.js';
import { PCI_DSS } from './pci-dss.js';
import { SOC2 } from './soc2.js';

/** Every framework by its id (spec "Compliance"). */
export const FRAMEWORKS: Readonly<Record<FrameworkId, Framework>> = {
  soc2: SOC2,
  hipaa: HIPAA,
  pci_dss: PCI_DSS,
  nist: NIST,
  iso27001: ISO27001,
  cis_controls: CIS_CONTROLS,
};
