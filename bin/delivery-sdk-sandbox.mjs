#!/usr/bin/env node
import '../dist/cli/sandbox.js';
