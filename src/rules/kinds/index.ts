/** Registers the built-in ruleset kinds (importing this module is enough). */
import './plugin';
import './formatter-kind';
import './template-file';
import './simple-parser';
import './static-cache';
import './branch-loop';
import './time-window';
import './file-check';
