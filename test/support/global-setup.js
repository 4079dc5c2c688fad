'use strict';
// jest globalSetup of the integration and fault projects: the real broker must be there (never skip).
const { ensureRabbitMQ } = require('./broker');
module.exports = async () => { await ensureRabbitMQ(); };
