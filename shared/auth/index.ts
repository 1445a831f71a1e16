export {
  type Principal,
  ROLE_ADMIN,
  ROLE_DEVELOPER,
  ROLE_USER,
  isAdmin,
  hasPermission,
  boundByAuthor,
} from './principal';
